#!/usr/bin/env node
// Runs the CLI: the single-file bundle dist/card-sandbox.cjs, compiled with V8's code cache beside
// it (written by `npm run build`), which saves most of the compile work at every start. When the
// cache is missing or was made by another Node version, this run writes a new one as it exits
// (if the directory is writable; otherwise the CLI runs the same, only slower to start).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const bundle = fileURLToPath(new URL('../dist/card-sandbox.cjs', import.meta.url));
const cacheFile = `${bundle}.cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`;
const script = new Script(source, { filename: bundle, cachedData });
if (cachedData === undefined || script.cachedDataRejected) {
  process.once('exit', () => {
    try {
      const partial = `${cacheFile}.${process.pid}`;
      writeFileSync(partial, script.createCachedData());
      renameSync(partial, cacheFile);
    } catch {
      // A read-only install: nothing to do.
    }
  });
}
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
await module.exports.main(process.argv);
