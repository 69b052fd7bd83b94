// `npm run build`: the clients' types first (scripts/api-types.mjs), which the sources and the
// inspector read; then dist/'s JavaScript (scripts/compile.mjs, esbuild) beside its declarations
// (tsc, which writes only them and checks nothing: `npm run typecheck` checks; and only for the files
// the package's two entries reach, tsconfig.declarations.json, all that the bundles' declarations
// are made from). The bundles (scripts/bundle.mjs) are made from the JavaScript while tsc still
// runs, the libraries' declarations (scripts/bundle-types.mjs) once both are done; beside all of it
// the inspector (scripts/build-ui.mjs), which reads the sources rather than anything the others
// write. Each step is a process of its own, its output passed through; the first that fails stops
// the others and the build. Last, the hash of the sources it was built from, dist/sources.sha256
// (sources-hash.mjs), by which `npm start` knows the build is current.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { nodeLineProblem } from './node-line.mjs';
import { RECORD, sourcesHash } from './sources-hash.mjs';

const tooOld = nodeLineProblem(process.version);
if (tooOld) {
  process.stderr.write(`error ${tooOld}\n`);
  process.exit(1);
}

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const running = new Set();

/** Runs `node …args` to its end; rejects, naming the step, when it fails. */
const step = (...args) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    running.add(child);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      running.delete(child);
      if (code === 0) resolve();
      else reject(new Error(`${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });

try {
  await step('scripts/api-types.mjs');
  const declarations = step(TSC, '-p', 'tsconfig.declarations.json', '--emitDeclarationOnly', '--noCheck');
  const bundles = step('scripts/compile.mjs').then(() => step('scripts/bundle.mjs'));
  // After the bundles too: bundle.mjs empties dist/lib before it writes the libraries there.
  const types = Promise.all([bundles, declarations]).then(() => step('scripts/bundle-types.mjs'));
  await Promise.all([types, step('scripts/build-ui.mjs')]);
  writeFileSync(RECORD, `${sourcesHash()}\n`);
} catch (error) {
  for (const child of running) child.kill();
  process.stderr.write(`build: ${error.message}\n`);
  process.exitCode = 1;
}
