import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ROOT } from '../testing/spawn.js';
import { HUNG_MS, until } from '../testing/wait.js';

// A fresh clone (README: Quick start): `npm start` builds first when dist/ is missing or was built
// from other sources — their contents, not their times (scripts/ensure-built.mjs, the start
// script's first step) — and the bin without a build says what to run.
const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-first-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the bin without a build prints one line saying what to run, and no stack', () => {
  mkdirSync(join(dir, 'bare', 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'bin/card-sandbox.cjs'), join(dir, 'bare', 'bin', 'card-sandbox.cjs'));
  const run = spawnSync(process.execPath, [join(dir, 'bare', 'bin', 'card-sandbox.cjs'), 'start'], { encoding: 'utf8' });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe('error card-sandbox is not built yet (dist/card-sandbox.cjs is missing): run `npm run build`, or `npm start`, which builds first\n');
});

test('npm start builds when dist/ is missing or its sources changed, and not when they were only rewritten', () => {
  // A clone as npm runs it: this repository's start script and .npmrc, its build recorded, its bin a stub.
  const clone = join(dir, 'clone');
  for (const d of ['scripts', 'src', 'ui', 'drizzle', 'dist', 'bin']) mkdirSync(join(clone, d), { recursive: true });
  for (const script of ['ensure-built.mjs', 'sources-hash.mjs']) copyFileSync(join(ROOT, 'scripts', script), join(clone, 'scripts', script));
  copyFileSync(join(ROOT, '.npmrc'), join(clone, '.npmrc'));
  const { start } = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts;
  const calls = join(dir, 'calls');
  const record = (what: string) => `node -e "require('node:fs').appendFileSync(process.env.CALLS, '${what}\\n')"`;
  writeFileSync(join(clone, 'package.json'), JSON.stringify({ name: 'clone', private: true, scripts: { start, build: record('build') } }));
  writeFileSync(
    join(clone, 'bin/card-sandbox.cjs'),
    "require('node:fs').appendFileSync(process.env.CALLS, 'started ' + process.argv.slice(2).join(' ') + '\\n');",
  );
  for (const f of ['package-lock.json', 'src/a.ts', 'ui/b.ts', 'drizzle/0000.sql']) writeFileSync(join(clone, f), '{}');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const npmStart = () => spawnSync('npm', ['start', '--', '--port', '5000'], { cwd: clone, encoding: 'utf8', env: { ...env, CALLS: calls } });
  const called = () => (existsSync(calls) ? readFileSync(calls, 'utf8') : '');

  const missing = npmStart();
  expect(missing.status).toBe(0);
  expect(missing.stderr).toContain('card-sandbox: dist/card-sandbox.cjs is missing; building first (npm run build, about a minute)…\n');
  expect(missing.stderr).toMatch(/card-sandbox: built in \d+ s\n/);
  expect(called()).toBe('build\nstarted start --port 5000\n');

  // The build is recorded by what it was made from: files written again with the same content, as
  // `npm i` rewrites package-lock.json, are no change.
  writeFileSync(join(clone, 'dist/card-sandbox.cjs'), '');
  const later = new Date(Date.now() + 60_000);
  for (const f of ['package-lock.json', 'src/a.ts']) {
    writeFileSync(join(clone, f), readFileSync(join(clone, f)));
    utimesSync(join(clone, f), later, later);
  }
  const current = npmStart();
  expect(current.stderr).not.toContain('building first');
  expect(called()).toBe('build\nstarted start --port 5000\nstarted start --port 5000\n');

  writeFileSync(join(clone, 'src/a.ts'), '{ "changed": true }');
  const stale = npmStart();
  expect(stale.stderr).toContain('card-sandbox: the sources changed since the last build; building first (npm run build, about a minute)…\n');
  expect(called()).toBe('build\nstarted start --port 5000\nstarted start --port 5000\nbuild\nstarted start --port 5000\n');

  // A dist/ built before builds were recorded is judged by file times.
  rmSync(join(clone, 'dist/sources.sha256'));
  const past = new Date(Date.now() - 60_000);
  for (const f of ['package.json', 'package-lock.json', 'src/a.ts', 'ui/b.ts', 'drizzle/0000.sql', 'scripts/ensure-built.mjs', 'scripts/sources-hash.mjs'])
    utimesSync(join(clone, f), past, past);
  for (const d of ['src', 'ui', 'drizzle', 'scripts']) utimesSync(join(clone, d), past, past);
  expect(npmStart().stderr).not.toContain('building first');
  utimesSync(join(clone, 'src/a.ts'), later, later);
  expect(npmStart().stderr).toContain('the sources changed since the last build');
});

test(
  'run by an npm script, it stops when npm is stopped by its pid, and frees the port',
  async () => {
    // sh stands in for npm: it starts the sandbox as `npm start` would, then is killed as `kill <npm's pid>` kills npm.
    const ready = join(dir, 'ready');
    const npm = spawn('sh', [
      '-c',
      `npm_lifecycle_event=start "${process.execPath}" "${join(ROOT, 'bin/card-sandbox.cjs')}" start --port 0 --json > "${ready}" 2>/dev/null & echo $!; wait`,
    ]);
    const pid = await new Promise<number>((resolve) => npm.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      // Each wait is for the event itself; the limit only says "hung", whatever the machine's load.
      await until(() => existsSync(ready) && readFileSync(ready, 'utf8').includes('"event":"ready"'), 'the ready line', HUNG_MS);
      const { url } = JSON.parse(readFileSync(ready, 'utf8').split('\n')[0]!) as { url: string };
      npm.kill('SIGKILL');
      await until(() => !alive(), 'the sandbox to stop after npm did', HUNG_MS);
      await expect(fetch(`${url}/_sandbox/health`)).rejects.toThrow();
    } finally {
      if (alive()) process.kill(pid, 'SIGKILL');
    }
  },
  2 * HUNG_MS,
);
