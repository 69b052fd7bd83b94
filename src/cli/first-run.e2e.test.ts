import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ROOT } from '../testing/spawn.js';

// A fresh clone (README: Quick start): `npm start` builds first when dist/ is missing or older than
// the sources (scripts/ensure-built.mjs, its prestart), and the bin without a build says what to run.
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

test('npm start builds when dist/ is missing or stale, and not when it is current', () => {
  const clone = join(dir, 'clone');
  for (const d of ['scripts', 'src', 'ui', 'drizzle', 'dist']) mkdirSync(join(clone, d), { recursive: true });
  copyFileSync(join(ROOT, 'scripts/ensure-built.mjs'), join(clone, 'scripts/ensure-built.mjs'));
  for (const f of ['package.json', 'package-lock.json', 'src/a.ts', 'ui/b.ts', 'drizzle/0000.sql']) writeFileSync(join(clone, f), '{}');
  // npm as the script sees it: it records what it was asked to run.
  const npm = join(dir, 'npm.cjs');
  writeFileSync(npm, "require('node:fs').appendFileSync(process.env.CALLS, process.argv.slice(2).join(' ') + '\\n');");
  const calls = join(dir, 'calls');
  const ensure = () => spawnSync(process.execPath, ['scripts/ensure-built.mjs'], { cwd: clone, encoding: 'utf8', env: { ...process.env, npm_execpath: npm, CALLS: calls } });
  const called = () => (existsSync(calls) ? readFileSync(calls, 'utf8') : '');

  const missing = ensure();
  expect([missing.status, missing.stderr, called()]).toEqual([0, 'card-sandbox: dist/card-sandbox.cjs is missing; building first (npm run build)…\n', 'run build\n']);

  writeFileSync(join(clone, 'dist/card-sandbox.cjs'), '');
  const past = new Date(Date.now() - 60_000);
  for (const f of ['package.json', 'package-lock.json', 'src/a.ts', 'ui/b.ts', 'drizzle/0000.sql', 'scripts/ensure-built.mjs', 'src', 'ui', 'drizzle', 'scripts']) utimesSync(join(clone, f), past, past);
  const current = ensure();
  expect([current.status, current.stderr, called()]).toEqual([0, '', 'run build\n']);

  writeFileSync(join(clone, 'src/a.ts'), '{ "changed": true }');
  const stale = ensure();
  expect([stale.status, stale.stderr, called()]).toEqual([0, 'card-sandbox: the sources changed since the last build; building first (npm run build)…\n', 'run build\nrun build\n']);
});

test('run by an npm script, it stops when npm is stopped by its pid, and frees the port', async () => {
  // sh stands in for npm: it starts the sandbox as `npm start` would, then is killed as `kill <npm's pid>` kills npm.
  const ready = join(dir, 'ready');
  const npm = spawn('sh', ['-c', `npm_lifecycle_event=start "${process.execPath}" "${join(ROOT, 'bin/card-sandbox.cjs')}" start --port 0 --json > "${ready}" 2>/dev/null & echo $!; wait`]);
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
    for (let i = 0; i < 200 && !(existsSync(ready) && readFileSync(ready, 'utf8').includes('"event":"ready"')); i++) await new Promise((r) => setTimeout(r, 25));
    const { url } = JSON.parse(readFileSync(ready, 'utf8').split('\n')[0]!) as { url: string };
    npm.kill('SIGKILL');
    for (let i = 0; i < 200 && alive(); i++) await new Promise((r) => setTimeout(r, 25));
    expect(alive()).toBe(false);
    await expect(fetch(`${url}/_sandbox/health`)).rejects.toThrow();
  } finally {
    if (alive()) process.kill(pid, 'SIGKILL');
  }
}, 20_000);
