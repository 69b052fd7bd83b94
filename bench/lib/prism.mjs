/**
 * Prism (Stoplight's OpenAPI mock server), the reference for cold start and writes: it answers from
 * the same OpenAPI document (the sandbox's own /openapi.json) and stores nothing. Installed on first
 * use into node_modules/.cache (a pinned version, from the npm registry); when that cannot be done the
 * bench says why and goes on without it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, ROOT } from './sandbox.mjs';

export const PRISM_VERSION = '5.14.2';
const DIR = join(ROOT, 'node_modules', '.cache', 'card-sandbox-bench', `prism-${PRISM_VERSION}`);
const BIN = join(DIR, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const START_TIMEOUT_MS = 30_000;

/** The path of Prism's CLI, installing it when missing; or `{ error }`. */
export function ensurePrism() {
  if (existsSync(BIN)) return { bin: BIN };
  mkdirSync(DIR, { recursive: true });
  process.stderr.write(`bench: installing @stoplight/prism-cli@${PRISM_VERSION} into ${DIR} (once)…\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', DIR, `@stoplight/prism-cli@${PRISM_VERSION}`], {
    encoding: 'utf8',
  });
  if (result.status !== 0 || !existsSync(BIN))
    return { error: `could not install Prism: ${(result.stderr || result.error?.message || '').trim().split('\n').slice(-3).join(' ')}` };
  return { bin: BIN };
}

/** Writes the sandbox's OpenAPI document where Prism can read it. */
export async function specFrom(sandboxUrl) {
  const res = await fetch(`${sandboxUrl}/openapi.json`);
  if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
  const file = join(DIR, 'openapi.json');
  mkdirSync(DIR, { recursive: true });
  // Prism ignores the path of `servers` (/v1): the paths take it, so that Prism answers where the sandbox does.
  const document = await res.json();
  const base = document.servers ? new URL(document.servers[0].url).pathname.replace(/\/$/, '') : '';
  document.paths = Object.fromEntries(Object.entries(document.paths).map(([path, item]) => [`${base}${path}`, item]));
  delete document.servers;
  writeFileSync(file, JSON.stringify(document));
  return file;
}

/**
 * `prism mock` on a free port, its log to /dev/null as the sandbox's is; resolves once it answers
 * `probe` (a request Prism routes), with `startMs` from the spawn.
 */
export async function startPrism(bin, spec, probe) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'mock', '-h', '127.0.0.1', '-p', String(port), spec], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Prism exited before answering: ${stderr}`);
    const status = await fetch(`${url}${probe.path}`, { method: probe.method, headers: probe.headers, body: probe.body }).then(
      (r) => r.status,
      () => undefined,
    );
    if (status !== undefined && status < 500) break;
    if (performance.now() - started > START_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`Prism did not answer within ${START_TIMEOUT_MS} ms: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 3));
  }
  return {
    url,
    pid: child.pid,
    startMs: performance.now() - started,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
