/**
 * A webhook receiver that accepts connections and never answers, against the built CLI: the
 * dispatcher holds no more sockets on it than its subscription's share of the attempts in flight
 * (a quarter of MAX_IN_FLIGHT: webhooks/send-pool.ts) and the API keeps answering; on SIGTERM the
 * process exits when the 5 s grace period ends, having recorded every attempt it cut short, and the
 * next start retries them. `npm run build` first.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { MAX_IN_FLIGHT } from '../webhooks/dispatcher.js';
import { startTestReceiver } from '../testing/receiver.js';
import { assertBuilt, startSandbox } from '../testing/spawn.js';

/** One subscription of a programme alone: half of the programme's half of the pool. */
const SHARE = MAX_IN_FLIGHT / 4;
const EVENTS = SHARE + 6;
const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-shutdown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function api(url: string) {
  const res = await fetch(`${url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET }),
  });
  const headers = { Authorization: `Bearer ${((await res.json()) as { token: string }).token}`, 'Content-Type': 'application/json' };
  return (method: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

it('keeps answering while a receiver hangs, and on SIGTERM records the attempts the grace period cut, and exits', async () => {
  assertBuilt();
  const db = join(dir, 'sandbox.db');
  const receiver = await startTestReceiver('hang');
  try {
    // The hanging attempts are given an hour: none times out while the test sets up, however slowly.
    const sandbox = await startSandbox(['--db', db, '--verify', 'off', '--webhook-timeout', '1h']);
    const call = await api(sandbox.url);
    expect((await call('PUT', '/v1/webhooks', { callbackUrl: `${receiver.url}/hook`, types: ['customer.updated'] })).status).toBe(200);
    for (let i = 0; i < EVENTS; i++) {
      const res = await call('POST', '/v1/customers', { chainId: `eip155:11155111:0x${randomBytes(20).toString('hex')}`, externalId: randomUUID() });
      expect(res.status).toBe(201);
    }
    await receiver.waitFor(SHARE);

    // The receiver holds every attempt the dispatcher may start for it, and no more; the API still answers.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? call('GET', '/v1/customers') : fetch(`${sandbox.url}/_sandbox/events?limit=5`))),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(receiver.requests).toHaveLength(SHARE);
    expect(receiver.connections).toBeLessThanOrEqual(SHARE);

    // It exits although the receiver never answers: the grace period ends the wait (the attempts
    // below are recorded as cut by it). The test's own limit, not a timing, tells a hang.
    sandbox.process.child.kill('SIGTERM');
    const exit = await sandbox.process.exited;
    expect(exit.code).toBe(0);

    const sqlite = new Database(db, { readonly: true });
    try {
      const attempts = sqlite.prepare('SELECT error, status_code FROM attempts').all() as { error: string | null; status_code: number | null }[];
      expect(attempts).toHaveLength(SHARE);
      expect(new Set(attempts.map((a) => a.error))).toEqual(new Set(['the sandbox shut down before the receiver answered']));
      const deliveries = sqlite.prepare('SELECT status, attempts, next_attempt_at FROM deliveries').all() as {
        status: string;
        attempts: number;
        next_attempt_at: number | null;
      }[];
      expect(deliveries).toHaveLength(EVENTS);
      expect(deliveries.every((d) => d.status === 'pending' && d.next_attempt_at !== null)).toBe(true);
      expect(deliveries.filter((d) => d.attempts === 1)).toHaveLength(SHARE);
    } finally {
      sqlite.close();
    }

    // The next start retries what was cut short (as attempt 2) and sends the rest (attempt 1).
    receiver.answer(200);
    const again = await startSandbox(['--db', db, '--verify', 'off']);
    try {
      const resent = (await receiver.waitFor(SHARE + EVENTS)).slice(SHARE);
      const attemptNumbers = resent.map((r) => r.headers['sandbox-delivery-attempt']);
      expect(attemptNumbers.filter((n) => n === '2')).toHaveLength(SHARE);
      expect(attemptNumbers.filter((n) => n === '1')).toHaveLength(EVENTS - SHARE);
    } finally {
      await again.stop();
    }
  } finally {
    await receiver.close();
  }
});
