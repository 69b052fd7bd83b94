// `npm run build`: the clients' types first (scripts/api-types.mjs), which both tsc and the inspector
// read; then tsc to dist/ and the bundles made from it (scripts/bundle.mjs), beside the inspector
// (scripts/build-ui.mjs), which reads the sources rather than anything tsc writes. Each step is a
// process of its own, its output passed through; the first that fails stops the others and the build.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

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
  await Promise.all([step(TSC, '-p', 'tsconfig.build.json').then(() => step('scripts/bundle.mjs')), step('scripts/build-ui.mjs')]);
} catch (error) {
  for (const child of running) child.kill();
  process.stderr.write(`build: ${error.message}\n`);
  process.exitCode = 1;
}
