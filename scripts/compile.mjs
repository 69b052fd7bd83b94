// The JavaScript of dist/: each source file that tsconfig.build.json names, compiled on its own by
// esbuild (types removed, nothing bundled), with its source map, as tsc would write it. Type checking
// is `npm run typecheck`'s; tsconfig.json's isolatedModules makes it refuse what a file-by-file
// compiler could not compile alone (a type re-exported without `export type`).
import { build } from 'esbuild';
import ts from 'typescript';

const CONFIG = 'tsconfig.build.json';

const { config, error } = ts.readConfigFile(CONFIG, ts.sys.readFile);
if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
const { fileNames, options, errors } = ts.parseJsonConfigFileContent(config, ts.sys, '.');
if (errors.length > 0) throw new Error(errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')).join('\n'));

await build({
  entryPoints: fileNames,
  outdir: options.outDir,
  outbase: options.rootDir,
  format: 'esm',
  platform: 'node',
  target: ts.ScriptTarget[options.target].toLowerCase(),
  sourcemap: true,
  sourcesContent: false,
  tsconfig: CONFIG,
  logLevel: 'warning',
});
