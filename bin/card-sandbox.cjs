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
