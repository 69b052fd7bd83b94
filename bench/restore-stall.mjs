/**
 * Another programme's reads while a large snapshot file is restored (docs/benchmarks.md: Where the
 * time goes, "A large restore"): a programme of BENCH_RESTORE_CUSTOMERS customers (default 12,000; each with an account,
 * a card, their events and jobs) is saved as a file, reset, and the file restored through
 * POST /_sandbox/snapshots/restore, three times; meanwhile a second programme is read with
 * GET /v1/customers one request after another. Prints the file's size, each restore's time and the
 * reads' p50 and max during the restores, as JSON. `node bench/restore-stall.mjs` after `npm run build`.
 *
 *   BENCH_RESTORE_OVER=used   restore over a programme that holds another world (a few customers
 *                             seeded after the reset), not into an empty one
 *   BENCH_RESTORE_DB=1        start the sandbox with `--db <file>` (in a temporary folder) instead of in memory
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, seedWorld, startSandbox } from './lib/sandbox.mjs';

const CUSTOMERS = Number(process.env.BENCH_RESTORE_CUSTOMERS ?? 12_000);
const USED = process.env.BENCH_RESTORE_OVER === 'used';
const folder = process.env.BENCH_RESTORE_DB === '1' ? mkdtempSync(join(tmpdir(), 'restore-stall-')) : undefined;
const ROUNDS = 3;
const CLOCK = '2026-03-01T09:00:00Z';

const sandbox = await startSandbox(['--verify', 'off', '--clock', CLOCK, ...(folder ? ['--db', join(folder, 'sandbox.db')] : [])]);
const { url } = sandbox;
try {
  for (let done = 0; done < CUSTOMERS; done += 2000) await seedWorld(url, Math.min(2000, CUSTOMERS - done), { prefix: `c${done}` });
  const { id } = await call(url, 'POST', '/_sandbox/snapshots', { body: {}, expect: 201 });
  const file = await (await fetch(`${url}/_sandbox/snapshots/${id}/file`)).arrayBuffer();

  const other = await call(url, 'POST', '/_sandbox/programmes', { body: { clock: CLOCK }, expect: 201 });
  await call(url, 'POST', `/_sandbox/seed?programme=${other.id}`, { body: { customers: [{ externalId: 'other' }] }, expect: 201 });
  const { token } = await call(url, 'POST', '/v1/auth/token', { body: { apiKey: other.apiKey, apiSecret: other.apiSecret }, expect: 200 });
  const read = async () => {
    const started = performance.now();
    const res = await fetch(`${url}/v1/customers`, { headers: { Authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /v1/customers answered ${res.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 200; i++) await read();

  const restores = [];
  const latencies = [];
  for (let round = 0; round < ROUNDS; round++) {
    await call(url, 'POST', '/_sandbox/reset');
    if (USED) await seedWorld(url, 20, { prefix: `used${round}` });
    let restoring = true;
    const reads = (async () => {
      while (restoring) latencies.push(await read());
    })();
    const started = performance.now();
    const res = await fetch(`${url}/_sandbox/snapshots/restore`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: file });
    const text = await res.text();
    restores.push(Math.round(performance.now() - started));
    restoring = false;
    await reads;
    if (res.status !== 200) throw new Error(`restore answered ${res.status}: ${text.slice(0, 300)}`);
  }
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10;
  console.log(
    JSON.stringify({
      customers: CUSTOMERS,
      over: USED ? 'used' : 'empty',
      db: folder ? 'file' : 'memory',
      fileMB: Math.round(file.byteLength / 1e5) / 10,
      restoreMs: restores,
      reads: latencies.length,
      p50: at(0.5),
      p99: at(0.99),
      max: at(1),
    }),
  );
} finally {
  await sandbox.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
}
