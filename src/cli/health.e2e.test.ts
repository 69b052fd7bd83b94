/**
 * `card-sandbox health` as a container HEALTHCHECK and a CI script use it: it finds a sandbox
 * started on another port (by `--port`, CARD_SANDBOX_PORT or the one running), answers with its
 * exit code (0 healthy, 1 answering but not healthy, 3 unreachable), and `--wait` waits for a
 * sandbox that is still starting. Finding the running sandbox, `--wait` and the exit of a real process
 * are the built CLI's; what a given port or URL answers goes through the CLI's own entry in this process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, freePort, runCli, spawnCli, startSandbox, type RunningCli } from '../testing/spawn.js';
import { runCommand } from '../testing/cli.js';
import { until } from '../testing/wait.js';

// The sandboxes of this file keep their run files in a temporary directory of their own, so that
// other test files' sandboxes are not found.
const tmp = mkdtempSync(join(tmpdir(), 'card-sandbox-health-'));
const isolated = { TMPDIR: tmp };
let sandbox: RunningCli;

beforeAll(async () => {
  assertBuilt();
  sandbox = await startSandbox([], isolated);
});
afterAll(async () => {
  await sandbox.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const portOf = (url: string) => new URL(url).port;

describe('card-sandbox health', () => {
  // The first five start no sandbox here, so they run together; the others change what is running.
  it.concurrent('finds the running sandbox on its port and exits 0', async () => {
    const run = await runCli(['health'], isolated);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`healthy ${sandbox.url}`);
  });

  it.concurrent('takes the port as start does, from --port or CARD_SANDBOX_PORT', async () => {
    const port = portOf(sandbox.url);
    const flag = await runCommand(['health', '--port', port, '--json']);
    expect(flag.code).toBe(0);
    expect(JSON.parse(flag.stdout)).toMatchObject({ status: 'ok', env: 'sandbox' });
    expect((await runCommand(['health'], { CARD_SANDBOX_PORT: port })).code).toBe(0);
  });

  it.concurrent('exits 3 when nothing answers, naming where it looked', async () => {
    const port = String(await freePort());
    const run = await runCommand(['health', '--port', port]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`no sandbox reachable at http://127.0.0.1:${port}`);
  });

  it.concurrent('exits 1 when something answers but is not a healthy sandbox', async () => {
    const server = createServer((_req, res) => res.writeHead(503, { 'Content-Type': 'text/plain' }).end('maintenance'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const run = await runCommand(['health', '--url', `http://127.0.0.1:${(server.address() as { port: number }).port}`]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/HTTP 503/);
    } finally {
      server.close();
    }
  });

  it.concurrent('refuses a bad --port or --wait as bad usage', async () => {
    expect((await runCommand(['health', '--port', 'http'])).code).toBe(2);
    const wait = await runCommand(['health', '--wait', 'soon']);
    expect(wait.code).toBe(2);
    expect(wait.stderr).toMatch(/--wait must be a duration/);
  });

  it('--wait waits for a sandbox that starts meanwhile', async () => {
    // Until then the port drops every connection, as one nothing listens on refuses it: health
    // asks twice and is still waiting.
    let asked = 0;
    const dropping = createNetServer((socket) => {
      asked++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const port = String((dropping.address() as { port: number }).port);
    const waiting = spawnCli(['health', '--port', port, '--wait', '30s']);
    await until(() => asked >= 2 || waiting.child.exitCode !== null, 'health to ask twice');
    expect(waiting.child.exitCode).toBeNull();
    await new Promise((resolve) => dropping.close(resolve));
    const late = spawnCli(['start', '--port', port], isolated);
    try {
      expect((await waiting.exited).code).toBe(0);
    } finally {
      late.child.kill('SIGTERM');
      await late.exited;
    }
  });

  it('says which to choose when several sandboxes run', async () => {
    const second = await startSandbox([], isolated);
    try {
      const run = await runCli(['health'], isolated);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('2 sandboxes are running');
      expect(run.stderr).toContain(second.url);
    } finally {
      await second.stop();
    }
    // Stopped cleanly, it no longer counts.
    expect((await runCli(['health'], isolated)).code).toBe(0);
  });

  it('forgets a sandbox that was killed', async () => {
    const killed = await startSandbox([], isolated);
    killed.process.child.kill('SIGKILL');
    await killed.process.exited;
    const run = await runCli(['health'], isolated);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(sandbox.url);
  });
});
