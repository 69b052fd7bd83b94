import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCommand } from '../testing/cli.js';
import { runCli, spawnCli, startSandbox, waitForOutput } from '../testing/spawn.js';

// `card-sandbox stop` (docs/ci.md: CI recipes): stops what `start` left running, found as `health`
// finds it, and waits until it has; with nothing to stop it exits 3. Each test stops a sandbox of
// its own, found by its URL or port: they run together. The client commands on the way run in this
// process, through the CLI's own entry.
test.concurrent('stops the sandbox start left running, then finds nothing to stop', async () => {
  const sandbox = await startSandbox();
  const listed = await runCommand(['customers', 'list', '--url', sandbox.url, '--json']);
  expect([listed.code, JSON.parse(listed.stdout)]).toEqual([0, []]);
  const stopped = await runCli(['stop', '--url', sandbox.url, '--json']);
  expect(stopped.code).toBe(0);
  expect(JSON.parse(stopped.stdout)).toEqual({ stopped: true, url: sandbox.url, pid: sandbox.process.child.pid });
  expect((await sandbox.process.exited).code).toBe(0);
  await expect(fetch(`${sandbox.url}/_sandbox/health`)).rejects.toThrow();
  const again = await runCli(['stop', '--url', sandbox.url]);
  expect(again.code).toBe(3);
  expect(again.stderr).toContain('no sandbox started on this machine serves it');
});

test.concurrent('finds it by --port, as health does, and says so for people', async () => {
  const sandbox = await startSandbox();
  const stopped = await runCli(['stop', '--port', new URL(sandbox.url).port]);
  expect(stopped.code).toBe(0);
  expect(stopped.stdout).toBe(`✓ stopped ${sandbox.url} (pid ${sandbox.process.child.pid})\n`);
  expect((await sandbox.process.exited).code).toBe(0);
});

test.concurrent('after a restart on the same --db, the banner tells the kept clock', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-kept-clock-'));
  try {
    const db = join(dir, 'sandbox.db');
    const first = await startSandbox(['--db', db]);
    expect((await runCommand(['clock', 'advance', '30d', '--url', first.url])).code).toBe(0);
    await first.stop();
    const again = spawnCli(['start', '--port', '0', '--db', db]);
    const banner = await waitForOutput(again, (out) => out.includes('Database'));
    again.child.kill('SIGTERM');
    await again.exited;
    expect(banner).toMatch(/Clock\s+running at \S+, 30 d ahead of real time \(kept in the database\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
