/**
 * Webhook retries under time travel (docs/control-plane.md: Time travel and the control plane): a day of retries for several failing
 * deliveries runs in one advance, the deliveries' attempts going out together, each recorded at
 * its own due time; a job due in the middle still runs at its time, after the attempts due before
 * it and before those due after; a shutdown during the advance leaves what is left pending.
 */
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attempts, deliveries } from '../store/schema.js';
import { createTestSandbox, steadyRandom, T0, type TestSandbox } from '../testing/harness.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';

const S = 1000;
const H = 3600 * S;
/** retry-policy.ts's schedule with the jitter draw at its midpoint, in seconds. */
const SCHEDULE_S = [0, 0, 1, 3, 7, 37, 97, 217, 457, 937, 1897, 3817, 7657, 14857, 22057, 29257, 36457, 43657, 50857, 58057, 65257, 72457, 79657];

describe('webhook retries in time travel', () => {
  let sandbox: TestSandbox;
  let receiver: Receiver;

  beforeEach(async () => {
    receiver = await startTestReceiver(500);
    sandbox = createTestSandbox({}, { random: steadyRandom(7, 0.5) });
    sandbox.deps.services.webhooks.put({ callbackUrl: `${receiver.url}/hook`, types: ['card.updated'] });
  });
  afterEach(async () => {
    await sandbox.deps.services.webhooks.drain(2000);
    await receiver.close();
  });

  const { services, store } = { services: () => sandbox.deps.services, store: () => sandbox.deps.store };
  const emit = (id: string) => store().transaction(() => services().events.emit('card.updated', id, { id, status: 'active' }));
  const deliveryRows = () => store().db.select().from(deliveries).orderBy(asc(deliveries.createdAt)).all();
  const attemptTimes = (deliveryId: string) =>
    store()
      .db.select()
      .from(attempts)
      .where(eq(attempts.deliveryId, deliveryId))
      .orderBy(asc(attempts.attempt))
      .all()
      .map((a) => (a.at - T0) / S);

  it('runs a day of retries for several deliveries in one advance, each attempt at its own due time', async () => {
    for (const id of ['card-1', 'card-2', 'card-3', 'card-4', 'card-5']) emit(id);
    await services().scheduler.advance(T0 + 25 * H);
    const rows = deliveryRows();
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'discarded', attempts: SCHEDULE_S.length, nextAttemptAt: null });
      expect(attemptTimes(row.id)).toEqual(SCHEDULE_S);
    }
    expect(receiver.requests).toHaveLength(5 * SCHEDULE_S.length);
  });

  it('runs a job due between two attempts at its time, after the attempts due before it', async () => {
    const seen: { at: number; attempts: number[] }[] = [];
    services().jobs.define('probe', (_subject, now) => {
      seen.push({ at: (now - T0) / S, attempts: deliveryRows().map((row) => attemptTimes(row.id).length) });
    });
    emit('card-1');
    emit('card-2');
    store().transaction(() => services().jobs.schedule('probe', 'x', T0 + 100 * S));
    await services().scheduler.advance(T0 + 25 * H);
    // Due by 100 s: the attempts at 0, 0, 1, 3, 7, 37 and 97 s; the next is at 217 s.
    expect(seen).toEqual([{ at: 100, attempts: [7, 7] }]);
    for (const row of deliveryRows()) expect(attemptTimes(row.id)).toEqual(SCHEDULE_S);
  });

  it('counts the attempts recorded so far while the advance is still under way (GET /_sandbox/clock)', async () => {
    emit('card-1');
    // Two attempts fail; the third hangs, so the advance is still waiting on it when the clock is asked.
    receiver.answer((request) => (receiver.requests.indexOf(request) < 2 ? 500 : 'hang'));
    const advancing = sandbox.json('POST', '/_sandbox/clock/advance', { body: { by: '25h' } });
    // The third attempt is sent once the second is recorded.
    await receiver.waitFor(3);
    const clock = await sandbox.json('GET', '/_sandbox/clock');
    expect(clock.body.advancing).toEqual({ to: new Date(T0 + 25 * H).toISOString(), ran: 2 });
    // Shut down without waiting on the hanging attempt: the advance answers.
    await services().webhooks.drain(0);
    expect((await advancing).status).toBe(200);
  });

  it('leaves the remaining retries pending when the sandbox shuts down during the advance', async () => {
    emit('card-1');
    const advancing = services().scheduler.advance(T0 + 25 * H);
    await receiver.waitFor(4);
    await services().webhooks.drain(2000);
    await advancing;
    const [row] = deliveryRows();
    expect(row!.status).toBe('pending');
    expect(row!.attempts).toBeLessThan(SCHEDULE_S.length);
    expect(receiver.requests.length).toBe(row!.attempts);
  });
});
