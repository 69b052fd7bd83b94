/**
 * The sandbox under test: the compiled CLI (bin/card-sandbox.cjs, i.e. the shipped bundle) in a
 * child process on a free loopback port, its CPU time and memory read from /proc, and the small
 * HTTP helpers the phases use to set up a world before loading it.
 */
import { execSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// BENCH_BIN runs another build's CLI instead (an A/B comparison against a copy of bin/ and dist/).
const BIN = process.env.BENCH_BIN ?? fileURLToPath(new URL('../../bin/card-sandbox.cjs', import.meta.url));
/** The root of the build measured: the folder holding BIN's bin/ (and, for the library's entry, its package.json). */
export const BUILD_ROOT = resolve(dirname(BIN), '..');
const API_KEY = '11111111-1111-4111-8111-111111111111';
const API_SECRET = 'sandbox-secret';
const HEALTH_POLL_MS = 3;
const START_TIMEOUT_MS = 15_000;

/** A port nobody listens on right now (bind to 0, read it, close). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

let ticksPerSecond;

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat. */
export function cpuMs(pid) {
  ticksPerSecond ??= Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100;
  // The command name (field 2) may hold spaces and parentheses; utime and stime are the 12th and
  // 13th fields after its closing parenthesis.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/**
 * CPU time (user + system, ms) of a whole process and of its main thread alone
 * (/proc/<pid>/task/<pid>/stat): the rest is libuv's thread pool (signing), V8's helpers and I/O.
 */
export const threadCpuMs = (pid) => ({ total: cpuMs(pid), main: cpuMs(`${pid}/task/${pid}`) });

/**
 * How long the main thread of a process has waited, runnable, for a core so far, in ms: the second
 * field of /proc/<pid>/task/<pid>/schedstat (ns). Undefined where the kernel keeps no such count.
 */
export function waitedMs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return undefined;
  }
}

/** Status of GET url, or undefined when nothing answers; never throws. */
function probe(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode));
    });
    req.once('error', () => resolve(undefined));
    req.setTimeout(1000, () => req.destroy());
  });
}

/**
 * `card-sandbox start --port <free> --db :memory: ...args`. The request log goes to /dev/null
 * (what a sandbox started in the background costs); stderr is kept for the error report.
 * Resolves once GET /_sandbox/health answers 200, with `startMs` measured from the spawn.
 */
export async function startSandbox(args = [], { nodeArgs = [], dropEnv = [] } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CARD_SANDBOX_') && !dropEnv.includes(name)));
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'start', '--port', String(port), '--host', '127.0.0.1', '--db', ':memory:', ...args], {
    cwd: ROOT,
    env: { ...base, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));

  const deadline = started + START_TIMEOUT_MS;
  for (;;) {
    if (gone) throw new Error(`the sandbox exited before it was healthy:\n${stderr}`);
    if ((await probe(`${url}/_sandbox/health`)) === 200) break;
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the sandbox was not healthy within ${START_TIMEOUT_MS} ms:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, HEALTH_POLL_MS));
  }
  const startMs = performance.now() - started;

  return {
    url,
    pid: child.pid,
    startMs,
    /** Resident and peak memory of the process, in MiB (VmRSS, VmHWM of /proc/<pid>/status). */
    memory() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
      return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
    },
    /** SIGTERM (a clean shutdown, needed for --cpu-prof to write its profile), SIGKILL after 6 s. */
    async stop() {
      if (gone) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 6000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** One JSON request; throws with the problem's detail unless the status is `expect`. */
export async function call(url, method, path, { token, body, headers = {}, expect, timeoutMs = 120_000 } = {}) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  const wanted = expect ?? (method === 'POST' && path.startsWith('/v1/') ? 201 : 200);
  if (res.status !== wanted) throw new Error(`${method} ${path} answered ${res.status} (wanted ${wanted}): ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

/** A bearer token for the default credentials. */
export async function token(url) {
  const body = await call(url, 'POST', '/v1/auth/token', { body: { apiKey: API_KEY, apiSecret: API_SECRET }, expect: 200 });
  return body.token;
}

/**
 * `n` active customers, each with an active EUR account and an issued virtual card, loaded in one
 * POST /_sandbox/seed (which goes through the same services as the API). `webhooks` go in first.
 */
export async function seedWorld(url, n, { prefix = 'bench', webhooks = [] } = {}) {
  const customers = Array.from({ length: n }, (_, i) => ({
    externalId: `${prefix}-${i}`,
    accounts: [{ currencies: ['EUR'], cards: [{ type: 'virtual' }] }],
  }));
  return call(url, 'POST', '/_sandbox/seed', { body: { webhooks, customers }, expect: 201 });
}
