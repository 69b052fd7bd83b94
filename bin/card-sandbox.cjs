#!/usr/bin/env node
// Runs the CLI: the single-file bundle dist/card-sandbox.cjs, compiled with V8's code cache beside
// it (written by `npm run build`), which saves most of the compile work at every start. When the
// cache is missing, was made by another Node version or for another bundle, this run writes a new
// one as it exits (if the directory is writable; otherwise the CLI runs the same, only slower to
// start). CommonJS, like the bundle: Node reaches a CommonJS entry sooner than an ES module.
'use strict';
// Node.js 22 is the oldest line still maintained, and the oldest better-sqlite3's addon loads on.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`error card-sandbox needs Node.js 22 or later; this is Node.js ${process.version}. Install a current LTS (22, 24 or 26).\n`);
  process.exit(1);
}
// The server's young generation: V8 sizes it from the machine's memory (128 MiB on a 24 GiB machine
// with Node 24), and a sandbox under load keeps all of it. `start` runs with 16 MiB semi-spaces
// instead, in this same process (execve keeps its pid, stdio and signals), unless Node was given a
// size of its own on its command line or in NODE_OPTIONS; and with glibc's malloc held to two
// arenas unless MALLOC_ARENA_MAX is set. Both are read only as a process starts, which is why it
// starts again (docs/configuration.md: Memory).
const SEMI_SPACE_MIB = 16;
const MALLOC_ARENAS = 2;
const sized = (flags) => /--max-semi-space-size/.test(flags);
if (process.argv[2] === 'start' && typeof process.execve === 'function' && !sized(process.execArgv.join(' ')) && !sized(process.env.NODE_OPTIONS ?? '')) {
  process.execve(process.execPath, [process.execPath, `--max-semi-space-size=${SEMI_SPACE_MIB}`, ...process.execArgv, __filename, ...process.argv.slice(2)], {
    MALLOC_ARENA_MAX: String(MALLOC_ARENAS),
    ...process.env,
  });
}
const { createHash } = require('node:crypto');
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');

const dist = join(__dirname, '..', 'dist');
const bundle = join(dist, 'card-sandbox.cjs');
const cacheFile = `${bundle}.cache`;
let bytes;
try {
  bytes = readFileSync(bundle);
} catch {
  // A clone before its first build: say what to run rather than show a stack.
  process.stderr.write('error card-sandbox is not built yet (dist/card-sandbox.cjs is missing): run `npm run build`, or `npm start`, which builds first\n');
  process.exit(1);
}
// The cache file starts with the SHA-256 of the bundle it was made for: V8 itself only compares the
// source's length, and would run stale code from a cache made for another bundle of the same size.
const digest = createHash('sha256').update(bytes).digest();
let cachedData;
try {
  const file = readFileSync(cacheFile);
  if (file.subarray(0, digest.length).equals(digest)) cachedData = file.subarray(digest.length);
} catch {
  cachedData = undefined;
}
const source = `(function (exports, require, module, __filename, __dirname) {${bytes.toString('utf8')}\n})`;
const script = new Script(source, { filename: bundle, cachedData });
if (cachedData === undefined || script.cachedDataRejected) {
  process.once('exit', () => {
    try {
      const partial = `${cacheFile}.${process.pid}`;
      writeFileSync(partial, Buffer.concat([digest, script.createCachedData()]));
      renameSync(partial, cacheFile);
    } catch {
      // A read-only install: nothing to do.
    }
  });
}
const loaded = { exports: {} };
script.runInThisContext()(loaded.exports, createRequire(bundle), loaded, bundle, dist);
loaded.exports.main(process.argv);
