/**
 * The built CLI in child processes, for e2e tests: a sandbox started on a free port (its URL read
 * from the `--json` start-up log line) and client commands run against it. `npm run build` first.
 * Not shipped.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { HUNG_MS } from './wait.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/card-sandbox.cjs', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  exited: Promise<Run>;
}

export function assertBuilt(): void {
  if (!existsSync(fileURLToPath(new URL('../../dist/card-sandbox.cjs', import.meta.url)))) {
    throw new Error('dist/ is missing: run `npm run build` before the e2e tests (npm test does)');
  }
}

export interface SpawnOptions {
  /** Run as this user (the test runs as root). */
  uid?: number;
  /** Options for node itself, before the bin. */
  nodeArgs?: string[];
}

/**
 * What a `start` is given unless the test gives Node options of its own: the size the launcher
 * would run its server with (docs/configuration.md: Memory), so that the server runs in the first
 * Node rather than a second one the launcher runs (about 0.1 s of CPU a start). start.e2e.test.ts
 * tests the launcher's own run with its flags and environment.
 */
const START_NODE_ARGS = ['--max-semi-space-size=8'];

/** Only what the test passes configures the CLI: CARD_SANDBOX_* is dropped from the environment. */
export function spawnCli(args: string[], env: Record<string, string> = {}, options: SpawnOptions = {}): Spawned {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CARD_SANDBOX_')));
  const nodeArgs = options.nodeArgs ?? (args[0] === 'start' ? START_NODE_ARGS : []);
  const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
    cwd: ROOT,
    env: { ...base, NO_COLOR: '1', ...env },
    ...(options.uid !== undefined && { uid: options.uid }),
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout: out, stderr: err })));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Runs one command to its end. */
export const runCli = (args: string[], env?: Record<string, string>, options?: SpawnOptions): Promise<Run> => spawnCli(args, env, options).exited;

/** Resolves when `predicate` holds for the output so far; rejects if the process ends first. */
export async function waitForOutput(process: Spawned, predicate: (stdout: string, stderr: string) => boolean, timeoutMs = HUNG_MS): Promise<string> {
  let ended = false;
  void process.exited.then(() => (ended = true));
  const deadline = Date.now() + timeoutMs;
  while (!predicate(process.stdout(), process.stderr())) {
    if (ended) throw new Error(`the process ended first:\n${process.stdout()}\n${process.stderr()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for output:\n${process.stdout()}\n${process.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return process.stdout();
}

/** A port nothing listens on (it was free a moment ago). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningCli {
  url: string;
  process: Spawned;
  stop(): Promise<void>;
}

/** `card-sandbox start --port 0 --json …`; resolves with its URL once it listens. */
export async function startSandbox(args: string[] = [], env: Record<string, string> = {}): Promise<RunningCli> {
  const process = spawnCli(['start', '--port', '0', '--json', ...args], env);
  // The ready line is the first line on stdout (docs/configuration.md: Configuration).
  const out = await waitForOutput(process, (text) => text.includes('\n'));
  const ready = JSON.parse(out.split('\n')[0]!) as { event: string; url: string };
  if (ready.event !== 'ready') throw new Error(`the first line is not the ready line: ${out}`);
  return {
    url: ready.url,
    process,
    async stop() {
      if (process.child.exitCode === null) process.child.kill('SIGTERM');
      await process.exited;
    },
  };
}
