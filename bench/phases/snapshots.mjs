/**
 * The snapshots phase (docs/snapshots.md), against the compiled CLI like every phase:
 *
 * - save, restore and fork of a programme holding 1,000 customers, each with an active account and
 *   an issued card (their events and jobs included), each as the client sees it, median of rounds.
 *   A restore follows what a test does to a world: a customer with an account and a card more, and
 *   an hour of the clock; a restore after a reset (every row written again) is reported beside it;
 * - another programme's GET /v1/customers under load, alone and while the first is saved and
 *   restored over and over: its p99 both ways;
 * - 500 failing deliveries mid-retry: a day advanced from the snapshot, then the snapshot restored
 *   and the same day advanced again — the attempts (which deliveries, which attempt, at what time)
 *   must be the same both times, and the receiver must get the same number of requests.
 */
import { startReceiver } from '../lib/receiver.mjs';
import { load, median, warmUp } from '../lib/load.mjs';
import { call, seedWorld, startSandbox } from '../lib/sandbox.mjs';

export const SNAPSHOT_CUSTOMERS = 1000;
export const PENDING_RETRIES = 500;
const ROUNDS = 10;
const CLOCK = '2026-03-01T09:00:00Z';
const ADVANCE_TIMEOUT_MS = 300_000;

const timed = async (fn) => {
  const started = performance.now();
  const result = await fn();
  return { ms: performance.now() - started, result };
};

/** Save, restore and fork times, and another programme's latency meanwhile. */
export async function snapshotCosts(nodeArgs = []) {
  const sandbox = await startSandbox(['--verify', 'off', '--clock', CLOCK], { nodeArgs });
  const { url } = sandbox;
  try {
    await seedWorld(url, SNAPSHOT_CUSTOMERS);
    const times = { save: [], restore: [], restoreAfterReset: [], fork: [] };
    let bytes;
    for (let round = -2; round < ROUNDS; round++) {
      const save = await timed(() => call(url, 'POST', '/_sandbox/snapshots', { body: {}, expect: 201 }));
      const { id } = save.result;
      bytes = save.result.bytes;
      await seedWorld(url, 1, { prefix: `round-${round}` });
      await call(url, 'POST', '/_sandbox/clock/advance', { body: { by: '1h' } });
      const restore = await timed(() => call(url, 'POST', `/_sandbox/snapshots/${id}/restore`));
      await call(url, 'POST', '/_sandbox/reset');
      const restoreAfterReset = await timed(() => call(url, 'POST', `/_sandbox/snapshots/${id}/restore`));
      const fork = await timed(() => call(url, 'POST', '/_sandbox/programmes', { body: { from: id }, expect: 201 }));
      await call(url, 'DELETE', `/_sandbox/programmes/${fork.result.id}`, { expect: 204 });
      await call(url, 'DELETE', `/_sandbox/snapshots/${id}`, { expect: 204 });
      // The first rounds warm the code paths up.
      if (round < 0) continue;
      times.save.push(save.ms);
      times.restore.push(restore.ms);
      times.restoreAfterReset.push(restoreAfterReset.ms);
      times.fork.push(fork.ms);
    }

    // Another programme, read under load: alone, then while the first is saved and restored.
    const other = await call(url, 'POST', '/_sandbox/programmes', { body: { clock: CLOCK }, expect: 201 });
    await call(url, 'POST', `/_sandbox/seed?programme=${other.id}`, {
      body: { customers: [{ externalId: 'other', accounts: [{ currencies: ['EUR'], cards: [{}] }] }] },
      expect: 201,
    });
    const { token } = await call(url, 'POST', '/v1/auth/token', { body: { apiKey: other.apiKey, apiSecret: other.apiSecret }, expect: 200 });
    const reads = { url: `${url}/v1/customers`, headers: { Authorization: `Bearer ${token}` } };
    await warmUp(reads.url, reads);
    const alone = await load(reads.url, reads);
    let churning = true;
    let churned = 0;
    const churn = (async () => {
      while (churning) {
        const { id } = await call(url, 'POST', '/_sandbox/snapshots', { body: {}, expect: 201 });
        await call(url, 'POST', `/_sandbox/snapshots/${id}/restore`);
        await call(url, 'DELETE', `/_sandbox/snapshots/${id}`, { expect: 204 });
        churned++;
      }
    })();
    const during = await load(reads.url, reads);
    churning = false;
    await churn;

    return {
      bytes,
      rounds: ROUNDS,
      saveMs: median(times.save),
      restoreMs: median(times.restore),
      restoreAfterResetMs: median(times.restoreAfterReset),
      forkMs: median(times.fork),
      alone,
      during,
      churned,
    };
  } finally {
    await sandbox.stop();
  }
}

/** Every attempt of every delivery, as `delivery attempt at status`, sorted: what a day of retries did. */
async function attemptsOf(url) {
  const events = await call(url, 'GET', '/_sandbox/events?limit=1000');
  const lines = [];
  for (const { id } of events) {
    const event = await call(url, 'GET', `/_sandbox/events/${id}`);
    for (const delivery of event.deliveries)
      for (const attempt of delivery.history) lines.push(`${delivery.id} ${attempt.attempt} ${attempt.at} ${attempt.statusCode}`);
  }
  return lines.sort();
}

/** A day of retries played from a snapshot, then again after restoring it: the same attempts? */
export async function retriesAfterRestore(nodeArgs = []) {
  const sandbox = await startSandbox(['--verify', 'off', '--clock', CLOCK, '--random-seed', '7'], { nodeArgs });
  const receiver = await startReceiver(500);
  const { url } = sandbox;
  try {
    // One event per customer left in `initiating`: exactly PENDING_RETRIES deliveries.
    const customers = Array.from({ length: PENDING_RETRIES }, (_, i) => ({ externalId: `failing-${i}`, status: 'initiating' }));
    await call(url, 'POST', '/_sandbox/seed', { body: { webhooks: [{ callbackUrl: receiver.url, types: ['customer.updated'] }], customers }, expect: 201 });
    // In real time the first attempt and the immediate retry run; the next waits 1 s of the frozen clock.
    await receiver.until((s) => s.requests >= 2 * PENDING_RETRIES, ADVANCE_TIMEOUT_MS);
    const { id } = await call(url, 'POST', '/_sandbox/snapshots', { body: {}, expect: 201 });
    const before = await attemptsOf(url);

    const day = async () => {
      const requests = receiver.stats.requests;
      await call(url, 'POST', '/_sandbox/clock/advance', { body: { by: '24h' }, timeoutMs: ADVANCE_TIMEOUT_MS });
      return { requests: receiver.stats.requests - requests, attempts: await attemptsOf(url) };
    };
    const first = await day();
    const restore = await timed(() => call(url, 'POST', `/_sandbox/snapshots/${id}/restore`));
    const restored = await attemptsOf(url);
    const second = await day();
    return {
      pending: PENDING_RETRIES,
      attemptsBefore: before.length,
      restoredAsBefore: restored.join() === before.join(),
      restoreMs: restore.ms,
      first: { requests: first.requests, attempts: first.attempts.length },
      second: { requests: second.requests, attempts: second.attempts.length },
      same: first.requests === second.requests && first.attempts.join() === second.attempts.join(),
    };
  } finally {
    await receiver.close();
    await sandbox.stop();
  }
}
