// `npm start`'s first step: builds when dist/ is missing or was built from other sources, so that
// `npm ci && npm start` works on a fresh clone and after a pull. What the build was made from is
// recorded as a hash of the sources' contents (sources-hash.mjs), not their times: `npm i`
// rewriting package-lock.json with the same content costs no build. A dist/ built before that
// record existed is judged by file times, once. (A step of the start script itself, not a prestart:
// the repository's .npmrc sets ignore-scripts, which keeps npm from running pre- and post-scripts.)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORD, SOURCES, sourcesHash } from './sources-hash.mjs';

const BUILT = 'dist/card-sandbox.cjs';

/** The newest modification time under `path`, tests left out. */
const newest = (path) => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) if (!entry.includes('.test.')) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
};

const current = sourcesHash();
const recorded = existsSync(RECORD) ? readFileSync(RECORD, 'utf8').trim() : undefined;
const why = !existsSync(BUILT)
  ? `${BUILT} is missing`
  : recorded !== undefined
    ? recorded === current
      ? undefined
      : 'the sources changed since the last build'
    : SOURCES.some((s) => existsSync(s) && newest(s) > statSync(BUILT).mtimeMs)
      ? 'the sources changed since the last build'
      : undefined;
if (why !== undefined) {
  process.stderr.write(`card-sandbox: ${why}; building first (npm run build, about a minute)…\n`);
  const started = Date.now();
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: true });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(RECORD, `${sourcesHash()}\n`);
  process.stderr.write(`card-sandbox: built in ${Math.round((Date.now() - started) / 1000)} s\n`);
}
