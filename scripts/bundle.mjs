// Bundles the compiled CLI (dist/cli/main.js) into one minified CommonJS file,
// dist/card-sandbox.cjs, which bin/card-sandbox.cjs runs, then starts it once so that V8's code
// cache for it (dist/card-sandbox.cjs.cache) is written. Loading one file instead of several
// hundred modules, and not compiling it at every start, is what keeps the cold start short.
// better-sqlite3 stays outside: it loads its prebuilt Node-API addon from its own package folder.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const BUNDLE = 'dist/card-sandbox.cjs';
const CACHE = `${BUNDLE}.cache`;

await build({
  entryPoints: ['dist/cli/main.js'],
  outfile: BUNDLE,
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['better-sqlite3'],
  // The sources are ES modules; in the CommonJS bundle their `import.meta.url` is the bundle's own.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});

// The warm-up: start the sandbox as a user does (banner, readable log), answer one request, stop.
// The cache the bin writes on the way out holds the code that start-up and a first request compiled.
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
