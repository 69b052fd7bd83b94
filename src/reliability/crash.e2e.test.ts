/**
 * Crash safety of a file database (WAL, synchronous = NORMAL): the built CLI is loaded with
 * concurrent writes and killed with SIGKILL mid-load, twice, restarting on the same file. Every
 * write that was answered 2xx is there afterwards, the file passes SQLite's integrity and foreign
 * key checks, and every customer has exactly its one event (written in the same transaction).
 * `npm run build` first.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';

const WORKERS = 16;
/** Writes answered per round before the kill: enough that the kill lands mid-stream. */
const WRITES_PER_ROUND = 300;

const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET }),
  });
  return ((await res.json()) as { token: string }).token;
}

interface Load {
  customers: Set<string>;
  webhooks: Set<string>;
  /** Requests that got no answer: the kill cut them off. */
  cut: number;
}

/** Concurrent creates until the process is killed; records the id of every 2xx answer. */
async function loadThenKill(sandbox: RunningCli, load: Load): Promise<void> {
  const auth = `Bearer ${await token(sandbox.url)}`;
  let answered = 0;
  let killed = false;
  const write = (i: number) =>
    i % 2 === 0
      ? fetch(`${sandbox.url}/v1/customers`, {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ chainId: `eip155:11155111:0x${randomBytes(20).toString('hex')}`, externalId: randomUUID() }),
        })
      : fetch(`${sandbox.url}/v1/webhooks`, {
          method: 'PUT',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ callbackUrl: 'http://127.0.0.1:9/hook', types: ['card.updated'] }),
        });
  const worker = async (w: number) => {
    for (let i = w; !killed; i++) {
      try {
        const res = await write(i);
        const body = (await res.json()) as { id: string };
        expect(res.status, JSON.stringify(body)).toBeLessThan(300);
        (i % 2 === 0 ? load.customers : load.webhooks).add(body.id);
        if (++answered === WRITES_PER_ROUND) {
          sandbox.process.child.kill('SIGKILL');
          killed = true;
        }
      } catch (error) {
        if (!killed) throw error;
        load.cut++;
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  await sandbox.process.exited;
}

it('loses no acknowledged write to SIGKILL under concurrent load, and the file stays consistent', async () => {
  assertBuilt();
  const db = join(dir, 'sandbox.db');
  const load: Load = { customers: new Set(), webhooks: new Set(), cut: 0 };
  for (let round = 0; round < 2; round++) await loadThenKill(await startSandbox(['--db', db, '--verify', 'off']), load);
  // Requests were in flight when the process died: the kill did land mid-load.
  expect(load.cut).toBeGreaterThan(0);

  // The last commits were still in the write-ahead log, not yet checkpointed into the file: opening
  // it runs SQLite's recovery, as the next start would.
  expect(statSync(`${db}-wal`).size).toBeGreaterThan(0);
  const sqlite = new Database(db);
  try {
    expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(sqlite.pragma('foreign_key_check')).toEqual([]);
    const ids = (table: string) => new Set(sqlite.prepare(`SELECT id FROM ${table}`).pluck().all() as string[]);
    const customers = ids('customers');
    const webhooks = ids('webhooks');
    expect([...load.customers].filter((id) => !customers.has(id))).toEqual([]);
    expect([...load.webhooks].filter((id) => !webhooks.has(id))).toEqual([]);
    // Created but cut off before the answer is fine; a customer without its event is not.
    const unmatched = sqlite
      .prepare(
        "SELECT c.id, count(e.id) AS n FROM customers c LEFT JOIN events e ON e.entity_id = c.id AND e.type = 'customer.updated' GROUP BY c.id HAVING n <> 1",
      )
      .all();
    expect(unmatched).toEqual([]);
  } finally {
    sqlite.close();
  }

  // And the sandbox starts again on it and serves every acknowledged write.
  const again = await startSandbox(['--db', db, '--verify', 'off']);
  try {
    const auth = { Authorization: `Bearer ${await token(again.url)}` };
    const listed = async (path: string) =>
      new Set(((await (await fetch(`${again.url}${path}`, { headers: auth })).json()) as { id: string }[]).map((r) => r.id));
    const customers = await listed('/v1/customers');
    const webhooks = await listed('/v1/webhooks');
    expect([...load.customers].filter((id) => !customers.has(id))).toEqual([]);
    expect([...load.webhooks].filter((id) => !webhooks.has(id))).toEqual([]);
  } finally {
    await again.stop();
  }
});
