// Bundles the compiled CLI (dist/cli/main.js) into one minified file, dist/card-sandbox.js, which
// bin/card-sandbox.js runs: loading one file instead of several hundred modules is what keeps the
// cold start short. better-sqlite3 stays external (a native addon).
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli/main.js'],
  outfile: 'dist/card-sandbox.js',
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3'],
  // CommonJS dependencies (commander) call require() for Node built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
