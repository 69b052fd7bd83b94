// Bundles what the package runs, so that installing it needs nothing but its own files (README:
// Quick start):
// - the compiled CLI (dist/cli/main.js) into one minified CommonJS file, dist/card-sandbox.cjs (the
//   MCP server of `card-sandbox mcp` apart, in dist/mcp.cjs, and OpenTelemetry's tracing, in dist/otel.cjs),
//   which bin/card-sandbox.cjs runs, then starts it once so that V8's code cache for it
//   (dist/card-sandbox.cjs.cache) is written. Loading one file instead of several hundred modules,
//   and not compiling it at every start, is what keeps the cold start short. What the commands reach
//   only through import() (the server side: src/cli/README.md) is wrapped by esbuild to be evaluated
//   when first imported, so a client command or --version does not evaluate the app;
// - the library entries, `card-sandbox` and `card-sandbox/client`, into ES modules in dist/lib/,
//   their shared code in common chunks (one ApiError class for both); their declarations are
//   scripts/bundle-types.mjs's, made from tsc's once these are written;
// - an empty database with every migration applied, dist/migrated.sqlite, that new in-memory
//   databases start from (store/store.ts), made by the store itself;
// - better-sqlite3's prebuilt Node-API addons into dist/prebuilds/, where store/sqlite-addon.ts
//   finds them. Its JavaScript is in the bundles: npm never sees its binding.gyp, so nothing is
//   compiled, whatever npm or pnpm installs the package and whether or not a toolchain is there.
// It reads only dist/'s JavaScript (scripts/compile.mjs), so it runs while tsc still writes the declarations.
import { isAscii } from 'node:buffer';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const BUNDLE = 'dist/card-sandbox.cjs';
const CACHE = `${BUNDLE}.cache`;
const LIB = 'dist/lib';

rmSync('dist/prebuilds', { recursive: true, force: true });
cpSync('node_modules/better-sqlite3/prebuilds', 'dist/prebuilds', { recursive: true });

const { MIGRATED_IMAGE, openStore } = await import('../dist/store/store.js');
rmSync(MIGRATED_IMAGE, { force: true });
const migrated = openStore(':memory:');
writeFileSync(MIGRATED_IMAGE, migrated.sqlite.serialize());
migrated.close();

const common = { bundle: true, minify: true, platform: 'node', target: 'node22', logLevel: 'warning' };
// The sources are ES modules; in a CommonJS bundle their `import.meta.url` is the bundle's own.
const commonJs = {
  format: 'cjs',
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};
// The bundles are independent of each other: they are made at once, and the warm-up below starts as
// soon as the CLI's is written.
const cli = build({
  ...common,
  ...commonJs,
  entryPoints: ['dist/cli/main.js'],
  outfile: BUNDLE,
  // `card-sandbox mcp` loads the MCP server from a bundle of its own, so that no other command pays
  // for it, and `start` loads OpenTelemetry's only when tracing is on (docs/tracing.md: Tracing);
  // with require, which the bin's vm.Script supports and a dynamic import() does not.
  supported: { 'dynamic-import': false },
  plugins: [
    { name: 'mcp apart', setup: (b) => b.onResolve({ filter: /\/mcp\/server\.js$/ }, () => ({ path: './mcp.cjs', external: true })) },
    { name: 'tracing apart', setup: (b) => b.onResolve({ filter: /\/tracing\/otel\.js$/ }, () => ({ path: './otel.cjs', external: true })) },
  ],
});
const apart = [
  build({ ...common, ...commonJs, entryPoints: ['dist/mcp/server.js'], outfile: 'dist/mcp.cjs' }),
  build({ ...common, ...commonJs, entryPoints: ['dist/tracing/otel.js'], outfile: 'dist/otel.cjs' }),
];

/** The library entries, in dist/lib (their declarations: scripts/bundle-types.mjs). */
async function libraries() {
  rmSync(LIB, { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: { index: 'dist/index.js', client: 'dist/client/index.js' },
    outdir: LIB,
    format: 'esm',
    splitting: true,
    keepNames: true,
    chunkNames: 'chunk-[hash]',
    // The CommonJS modules inside (better-sqlite3's JavaScript) call require and read __dirname.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; import { dirname as __pathDirname } from 'node:path'; import { fileURLToPath as __fileURLToPath } from 'node:url'; const require = __createRequire(import.meta.url); const __filename = __fileURLToPath(import.meta.url); const __dirname = __pathDirname(__filename);",
    },
  });
}

/**
 * The bin reads the CLI's bundle into the source V8 compiles at every start: all ASCII, that is a
 * one-byte string, decoded straight, where a single other character makes all 1.2 MB two-byte —
 * twice the memory, a UTF-8 conversion and a larger copy. esbuild escapes such characters in
 * strings but not in a regular expression: there the source must write one as an escape (\u2022).
 */
function refuseNonAscii() {
  const bytes = readFileSync(BUNDLE);
  if (isAscii(bytes)) return;
  const at = bytes.findIndex((byte) => byte > 0x7f);
  const line = bytes.subarray(0, at).toString('latin1').split('\n').length;
  const around = bytes.subarray(Math.max(0, at - 40), at + 20).toString('utf8');
  throw new Error(`${BUNDLE} line ${line} holds a character outside ASCII, in: ${around}\nwrite it as an escape (\\uXXXX) in the source`);
}

/**
 * The warm-up: start the sandbox as a user does (banner, readable log), answer one request, stop.
 * The cache the bin writes on the way out holds the code that start-up and a first request compiled.
 */
async function warmUp() {
  rmSync(CACHE, { force: true });
  const child = spawn(process.execPath, ['bin/card-sandbox.cjs', 'start', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the warm-up start was not ready within 30 s:\n${output}`));
    }, 30_000);
    timer.unref();
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const found = /API\s+(http:\/\/\S+)\/v1/.exec(output);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the warm-up start exited (${code}) before it was ready:\n${output}`)));
  });
  const health = await fetch(`${url}/_sandbox/health`, { headers: { connection: 'close' } });
  if (!health.ok) throw new Error(`the warm-up start answered ${health.status} on /_sandbox/health`);
  const stopped = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await stopped;
  if (!existsSync(CACHE)) throw new Error(`the warm-up did not write ${CACHE}`);
}

await Promise.all([cli.then(refuseNonAscii).then(warmUp), ...apart, libraries()]);
