/**
 * The companion phase: what a test file's start costs, `import('card-sandbox')` then
 * `createSandbox()` to a sandbox that answers (bench/lib/companion-start.mjs), in a new Node process
 * each run, with the package's own entry from the root of the build the rest of the bench measures
 * (this checkout's dist/, or BENCH_BIN's). With BENCH_BASELINE, another checkout built in place
 * (docs/benchmarks.md), a run of the baseline and one of this build alternate, so that the
 * machine's load falls on both alike; each figure is the median of its runs, and this build's CPU
 * against the baseline's the median of the pairs' ratios (each run against the baseline's just
 * before it), which a change in the load during the phase moves less than the medians' ratio.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median } from '../lib/load.mjs';
import { loadAverage } from '../lib/report.mjs';
import { BUILD_ROOT } from '../lib/sandbox.mjs';

export const COMPANION_RUNS = 21;
const RUN_TIMEOUT_MS = 120_000;
const START = readFileSync(new URL('../lib/companion-start.mjs', import.meta.url), 'utf8');

/**
 * The build BENCH_BASELINE names, `{ root, name }` (its short commit, or its path outside git), or
 * undefined without it. Throws when the folder holds no built library entry, so that a run meant to
 * compare stops before its first phase rather than at this one.
 */
export function companionBaseline() {
  const dir = process.env.BENCH_BASELINE;
  if (dir === undefined) return undefined;
  const root = resolve(dir);
  if (!existsSync(join(root, 'package.json')) || !existsSync(join(root, 'dist/lib/index.js')))
    throw new Error(`BENCH_BASELINE=${dir}: no package.json and dist/lib/index.js there; run \`npm ci && npm run build\` in it first`);
  try {
    return { root, name: `commit ${execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: 'pipe' }).trim()}` };
  } catch {
    return { root, name: root };
  }
}

/** One start in a new process in the build at `root`: each step's CPU and wall time, in ms. */
const startOnce = (root, nodeArgs) =>
  new Promise((done, fail) => {
    const args = [...nodeArgs, '--input-type=module', '--eval', START];
    execFile(process.execPath, args, { cwd: root, timeout: RUN_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (!error) return done(JSON.parse(stdout.trim().split('\n').at(-1)));
      const why =
        stderr
          .trim()
          .split('\n')
          .findLast((line) => /Error|error:/.test(line)) ??
        error.signal ??
        `exit ${error.code}`;
      fail(new Error(`a start in ${root} failed: ${why}`));
    });
  });

/** A run's time, the import's and createSandbox()'s together: `cpuMs` or `wallMs`. */
const both = (run, figure = 'cpuMs') => run.import[figure] + run.create[figure];

/** The medians of a build's runs: the import, createSandbox() and both, CPU and wall; and each run's CPU. */
const figures = (runs) => {
  const of = (time) => median(runs.map(time));
  return {
    cpuMs: of((r) => both(r)),
    importCpuMs: of((r) => r.import.cpuMs),
    createCpuMs: of((r) => r.create.cpuMs),
    wallMs: of((r) => both(r, 'wallMs')),
    importWallMs: of((r) => r.import.wallMs),
    createWallMs: of((r) => r.create.wallMs),
    runsCpuMs: runs.map((r) => both(r)),
  };
};

/**
 * COMPANION_RUNS starts of this build, each after one of the baseline's if one is given, after a
 * first run of each that is not counted (it reads the build's files into the page cache).
 */
export async function companionStarts(nodeArgs = [], baseline) {
  const builds = [...(baseline ? [{ root: baseline.root, runs: [] }] : []), { root: BUILD_ROOT, runs: [] }];
  const loadBefore = loadAverage();
  try {
    for (let run = -1; run < COMPANION_RUNS; run++) {
      for (const build of builds) {
        const result = await startOnce(build.root, nodeArgs);
        if (run >= 0) build.runs.push(result);
      }
    }
  } catch (error) {
    return { error: error.message };
  }
  const [base, current] = baseline ? builds : [undefined, builds[0]];
  return {
    current: figures(current.runs),
    ...(base && {
      baseline: { name: baseline.name, ...figures(base.runs) },
      ofBaseline: median(current.runs.map((run, i) => both(run) / both(base.runs[i]))),
    }),
    load: `${loadBefore} before, ${loadAverage()} after`,
  };
}
