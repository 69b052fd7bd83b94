// `npm start`'s first step: builds when dist/ is missing or older than what it is built
// from, so that `npm ci && npm start` works on a fresh clone and after a pull. When the build is
// current it only compares file times. (A step of the start script itself, not a prestart: the
// repository's .npmrc sets ignore-scripts, which keeps npm from running pre- and post-scripts.)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const BUILT = 'dist/card-sandbox.cjs';
const SOURCES = ['src', 'ui', 'scripts', 'drizzle', 'package.json', 'package-lock.json'];

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};
/** The newest modification time under `path`, tests left out. */
const newest = (path) => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) if (!entry.includes('.test.')) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
};

const built = mtime(BUILT);
const why = built === undefined ? `${BUILT} is missing` : SOURCES.some((s) => newest(s) > built) ? 'the sources changed since the last build' : undefined;
if (why !== undefined) {
  process.stderr.write(`card-sandbox: ${why}; building first (npm run build)…\n`);
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: true });
  process.exit(result.status ?? 1);
}
