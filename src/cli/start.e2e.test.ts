/**
 * `card-sandbox start` as users run it: the built CLI (`npm run build` first; `npm test` does)
 * in a child process on a free port — health, banner, a real request, refusals of bad flags and a
 * clean exit on SIGTERM and SIGINT.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { newSigningKey, signedHeaders } from '../testing/signer.js';
import { assertBuilt, runCli } from '../testing/spawn.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/card-sandbox.cjs', import.meta.url));

interface Cli {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: Cli[] = [];
// Spawning node is slow on a busy machine; these tests wait on processes, not on speed.
const SPAWN_TIMEOUT_MS = 60_000;

function cli(args: string[], extraEnv: Record<string, string> = {}): Cli {
  // Only what the test passes configures the sandbox: drop CARD_SANDBOX_* from the environment.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CARD_SANDBOX_')));
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...env, ...extraEnv, NO_COLOR: '1' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const handle = { child, stdout: () => out, stderr: () => err, exited };
  running.push(handle);
  return handle;
}

/** Where the launcher can run `start` again with Node options of its own: Linux, Node with process.execve (22.15 and later). */
const reruns = process.platform === 'linux' && typeof process.execve === 'function';

/** The options Node itself was started with in the CLI's process, from its command line (Linux). */
function nodeFlagsOf({ child }: Cli): string[] {
  const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
  return argv.slice(1, argv.indexOf(BIN));
}

/** The environment the CLI's process runs with (Linux). */
const environmentOf = ({ child }: Cli): string[] => readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls until the sandbox answers its health check, or the process exits. */
async function healthy(base: string, process: Cli) {
  let exited = false;
  void process.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`the sandbox exited before it was healthy:\n${process.stdout()}\n${process.stderr()}`);
    try {
      const res = await fetch(`${base}/_sandbox/health`);
      if (res.status === 200) return (await res.json()) as Record<string, unknown>;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(assertBuilt);

afterEach(() => {
  for (const handle of running.splice(0)) if (handle.child.exitCode === null && handle.child.signalCode === null) handle.child.kill('SIGKILL');
});

describe('card-sandbox start', () => {
  it(
    'becomes healthy, prints the banner, serves the API and exits 0 on SIGTERM',
    async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const sandbox = cli(['start', '--port', String(port)]);
      const health = await healthy(base, sandbox);
      expect(health).toMatchObject({ status: 'ok', env: 'sandbox', verify: 'warn' });
      // The server runs in the process that was spawned, its young generation capped (docs/configuration.md: Memory).
      if (reruns) expect(nodeFlagsOf(sandbox)).toContain('--max-semi-space-size=8');
      if (reruns) expect(environmentOf(sandbox)).toContain('MALLOC_ARENA_MAX=2');
      expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(Date.parse(health.clock as string)).not.toBeNaN();

      const banner = sandbox.stdout();
      expect(banner).toContain(`${base}/v1`);
      expect(banner).toContain(`${base}/_sandbox`);
      expect(banner).toMatch(new RegExp(`Inspector +${base}/_sandbox/ui/`));
      expect(banner).toContain(DEFAULT_API_KEY);
      expect(banner).toContain(DEFAULT_API_SECRET);
      expect(banner).toMatch(/env sandbox, verify warn/);
      expect(banner).toMatch(/in memory/);
      expect(stripVTControlCharacters(banner)).toBe(banner);

      const token = await fetch(`${base}/v1/auth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET }),
      });
      expect(token.status).toBe(200);
      const chains = await fetch(`${base}/v1/chains`, { headers: { Authorization: `Bearer ${((await token.json()) as { token: string }).token}` } });
      expect(chains.status).toBe(200);
      expect(chains.headers.get('Sandbox-Warning')).toMatch(/^invalid_signature: /);
      await expect.poll(() => sandbox.stdout()).toMatch(/GET\s+\/v1\/chains 200 [\d.]+ms/);

      const second = cli(['start', '--port', String(port)]);
      expect((await second.exited).code).toBe(1);
      expect(second.stderr()).toMatch(/port is already in use/);

      sandbox.child.kill('SIGTERM');
      expect(await sandbox.exited).toEqual({ code: 0, signal: null });
      expect(sandbox.stderr()).toContain('SIGTERM: shutting down');
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'follows its flags (JSON logs, strict, frozen clock, production) and exits 0 on SIGINT',
    async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const sandbox = cli(['start', '--port', String(port), '--json', '--verify', 'strict', '--clock', '2026-01-01T00:00:00Z', '--env', 'production'], {
        NODE_OPTIONS: '--max-semi-space-size=32',
      });
      expect(await healthy(base, sandbox)).toMatchObject({ env: 'production', verify: 'strict', clock: '2026-01-01T00:00:00.000Z' });
      // A size given to Node is left as it is.
      if (reruns) expect(nodeFlagsOf(sandbox)).not.toContain('--max-semi-space-size=8');
      const lines = sandbox
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({
        event: 'ready',
        url: base,
        inspector: `${base}/_sandbox/ui/`,
        apiKey: DEFAULT_API_KEY,
        apiSecret: DEFAULT_API_SECRET,
        env: 'production',
        verify: 'strict',
      });
      sandbox.child.kill('SIGINT');
      expect((await sandbox.exited).code).toBe(0);
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'registers --signing-key and takes credentials from the environment; signed requests pass strict mode over HTTP',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-start-'));
      try {
        const key = newSigningKey('7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f');
        const pemFile = join(dir, 'signing.pem');
        writeFileSync(pemFile, Buffer.from(key.signingKey, 'base64'));
        const apiKey = '2b9e7c51-3f0a-4d8e-9c61-5a7b8d9e0f12';
        const port = await freePort();
        const base = `http://127.0.0.1:${port}`;
        const sandbox = cli(['start', '--port', String(port), '--verify', 'strict', '--signing-key', pemFile, '--signing-key-id', key.keyId], {
          CARD_SANDBOX_API_KEY: apiKey,
          CARD_SANDBOX_API_SECRET: 'from-the-environment',
        });
        await healthy(base, sandbox);
        expect(sandbox.stdout()).toContain(apiKey);
        expect(sandbox.stdout()).not.toContain(DEFAULT_API_SECRET);
        expect(sandbox.stdout()).toMatch(new RegExp(`Signing key\\s+${key.keyId}`));

        const login = await fetch(`${base}/v1/auth/token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ apiKey, apiSecret: 'from-the-environment' }),
        });
        expect(login.status).toBe(200);
        const { token } = (await login.json()) as { token: string };
        const url = `${base}/v1/assets?chain=eip155:300`;
        const signed = await fetch(url, { headers: { ...(await signedHeaders(key, 'GET', url)), Authorization: `Bearer ${token}` } });
        expect(signed.status).toBe(200);
        const unsigned = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
        expect(unsigned.status).toBe(400);
        sandbox.child.kill('SIGTERM');
        expect((await sandbox.exited).code).toBe(0);

        const p256File = join(dir, 'p256.pem');
        writeFileSync(p256File, Buffer.from(newSigningKey(undefined, 'P-256').signingKey, 'base64'));
        const refused = cli(['start', '--port', String(port), '--signing-key', p256File]);
        expect((await refused.exited).code).toBe(2);
        expect(refused.stderr()).toMatch(/--signing-key .*p256\.pem: signingKey must be an ECDSA P-384/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SPAWN_TIMEOUT_MS,
  );

  it.each([
    [['--verify', 'loud'], /--verify must be one of strict, warn, off, got "loud"/],
    [['--port', 'http'], /--port must be an integer/],
    [['--clock', 'yesterday'], /--clock must be an ISO 8601 date/],
    [['--signing-key', '/nonexistent/key.pem'], /cannot read --signing-key \/nonexistent\/key.pem/],
  ])(
    'refuses %j with exit code 2 and says why',
    async (args, reason) => {
      const sandbox = cli(['start', '--port', String(await freePort()), ...args]);
      expect((await sandbox.exited).code).toBe(2);
      expect(sandbox.stderr()).toMatch(reason);
    },
    SPAWN_TIMEOUT_MS,
  );

  // As root (a container build, CI) the sandbox runs as uid 1000, as the image does, when that user
  // may run this checkout; otherwise it takes the write permission away from itself.
  const root = process.getuid?.() === 0;
  const canRunAs1000 = root && spawnSync(process.execPath, [BIN, '--version'], { uid: 1000, cwd: ROOT }).status === 0;
  it.skipIf(root && !canRunAs1000)(
    'says which directory the database cannot be written in, for whom, and how to fix it',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-unwritable-'));
      chmodSync(dir, 0o755);
      const data = join(dir, 'data');
      mkdirSync(data, { mode: 0o755 });
      if (!root) chmodSync(data, 0o555);
      try {
        const run = await runCli(['start', '--port', '0', '--db', join(data, 'sandbox.db')], {}, root ? { uid: 1000 } : {});
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`${data} is not writable by uid ${root ? 1000 : process.getuid!()}`);
        expect(run.stderr).toContain('-v card-sandbox-data:/data');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'refuses to run on a Node.js older than 22, saying what it needs',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-old-node-'));
      const preload = join(dir, 'node-20.cjs');
      writeFileSync(
        preload,
        "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.19.5' } });\nObject.defineProperty(process, 'version', { value: 'v20.19.5' });\n",
      );
      try {
        const run = await runCli(['start', '--port', '0'], {}, { nodeArgs: ['--require', preload] });
        expect(run.code).toBe(1);
        expect(run.stderr).toBe('error card-sandbox needs Node.js 22 or later; this is Node.js v20.19.5. Install a current LTS (22, 24 or 26).\n');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SPAWN_TIMEOUT_MS,
  );
});
