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
// with Node 24), and a sandbox under load keeps all of it. `start` runs with 8 MiB semi-spaces
// instead, in this same process (execve keeps its pid, stdio and signals), unless Node was given a
// size of its own on its command line or in NODE_OPTIONS; and with glibc's malloc held to two
// arenas unless MALLOC_ARENA_MAX is set. Both are read only as a process starts, which is why it
// starts again (docs/configuration.md: Memory).
const SEMI_SPACE_MIB = 8;
const MALLOC_ARENAS = 2;
const sized = (flags) => /--max-semi-space-size/.test(flags);
if (process.argv[2] === 'start' && typeof process.execve === 'function' && !sized(process.execArgv.join(' ')) && !sized(process.env.NODE_OPTIONS ?? '')) {
  process.execve(process.execPath, [process.execPath, `--max-semi-space-size=${SEMI_SPACE_MIB}`, ...process.execArgv, __filename, ...process.argv.slice(2)], {
    MALLOC_ARENA_MAX: String(MALLOC_ARENAS),
    ...process.env,
  });
}
const { hash } = require('node:crypto');
const { closeSync, fstatSync, openSync, readSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');

const dist = join(__dirname, '..', 'dist');
const bundle = join(dist, 'card-sandbox.cjs');
const cacheFile = `${bundle}.cache`;
// The bundle runs as a CommonJS module's body.
const HEAD = '(function (exports, require, module, __filename, __dirname) {';
const TAIL = '\n})';
const DIGEST_BYTES = 32;

/** Reads the open file `fd` into `buffer` from `at`, to the file's end or the buffer's, and closes it; the count read. */
function readInto(fd, buffer, at) {
  let end = at;
  try {
    for (let read = 1; read > 0 && end < buffer.length; end += read) read = readSync(fd, buffer, end, buffer.length - end, null);
  } finally {
    closeSync(fd);
  }
  return end - at;
}

/** The file opened, with its size; undefined when it cannot be. */
function opened(file) {
  let fd;
  try {
    fd = openSync(file, 'r');
    return { fd, size: fstatSync(fd).size };
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

const notBuilt = () => {
  // A clone before its first build: say what to run rather than show a stack.
  process.stderr.write('error card-sandbox is not built yet (dist/card-sandbox.cjs is missing): run `npm run build`, or `npm start`, which builds first\n');
  process.exit(1);
};
const code = opened(bundle) ?? notBuilt();
const cache = opened(cacheFile);
// One buffer holds the bundle, wrapped, then the cache: a start pays for each page of fresh memory it
// touches, and so touches those of the larger file only, not of both; and the source is decoded in
// one piece, where a wrapper joined to it would be copied once more by V8.
const wrapped = HEAD.length + code.size + TAIL.length;
const buffer = Buffer.allocUnsafeSlow(Math.max(wrapped, cache?.size ?? 0));
buffer.write(HEAD, 0, 'latin1');
let end;
try {
  end = HEAD.length + readInto(code.fd, buffer.subarray(0, wrapped - TAIL.length), HEAD.length);
} catch {
  notBuilt();
}
buffer.write(TAIL, end, 'latin1');
// The cache file starts with the SHA-256 of the bundle it was made for: V8 itself only compares the
// source's length, and would run stale code from a cache made for another bundle of the same size.
const digest = hash('sha256', buffer.subarray(HEAD.length, end));
const source = buffer.toString('utf8', 0, end + TAIL.length);
let cachedData;
try {
  const file = cache && buffer.subarray(0, readInto(cache.fd, buffer.subarray(0, cache.size), 0));
  if (file?.length > DIGEST_BYTES && file.toString('hex', 0, DIGEST_BYTES) === digest) cachedData = file.subarray(DIGEST_BYTES);
} catch {
  // Unreadable: as if there were none.
}
const script = new Script(source, { filename: bundle, cachedData });
if (cachedData === undefined || script.cachedDataRejected) {
  process.once('exit', () => {
    try {
      const partial = `${cacheFile}.${process.pid}`;
      writeFileSync(partial, Buffer.concat([Buffer.from(digest, 'hex'), script.createCachedData()]));
      renameSync(partial, cacheFile);
    } catch {
      // A read-only install: nothing to do.
    }
  });
}
const loaded = { exports: {} };
script.runInThisContext()(loaded.exports, createRequire(bundle), loaded, bundle, dist);
loaded.exports.main(process.argv);
