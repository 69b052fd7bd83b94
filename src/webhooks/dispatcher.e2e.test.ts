/**
 * Webhook delivery end to end: events emitted in the sandbox reach a real loopback receiver,
 * signed so an integrator can verify them with the published key; failing receivers get the
 * documented retries in sandbox time and then nothing; deleting or re-pointing a webhook steers
 * its pending deliveries; bursts drain in real time with bounded concurrency.
 */
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../kernel/ids.js';
import type { WebhookType } from '../domain/outbox.js';
import { attempts, deliveries } from '../store/schema.js';
import { createTestSandbox, steadyRandom, T0, type TestSandbox } from '../testing/harness.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { steady } from '../testing/wait.js';
import { publicKeyFrom, verifyWithLibrary, verifyWithNodeCrypto } from '../testing/webhook-verifiers.js';
import { MAX_IN_FLIGHT, type AttemptReport } from './dispatcher.js';

const S = 1000;
const H = 3600 * S;
/** The documented schedule (retry-policy.ts) with the jitter draw at its midpoint, in seconds. */
const SCHEDULE_S = [0, 0, 1, 3, 7, 37, 97, 217, 457, 937, 1897, 3817, 7657, 14857, 22057, 29257, 36457, 43657, 50857, 58057, 65257, 72457, 79657];

describe('webhook delivery', () => {
  let sandbox: TestSandbox;
  let receiver: Receiver;
  let reports: AttemptReport[];

  const setUp = async (random = seededRandom(7)) => {
    sandbox = createTestSandbox({}, { random });
    reports = [];
    sandbox.deps.services.webhooks.onAttempt((r) => reports.push(r));
  };
  beforeEach(async () => {
    receiver = await startTestReceiver();
    await setUp();
  });
  afterEach(async () => {
    sandbox.deps.services.scheduler.stop();
    await receiver.close();
    await sandbox.deps.services.webhooks.drain(2000);
  });

  const services = () => sandbox.deps.services;
  const subscribe = (types: WebhookType[], path = '/hook') => services().webhooks.put({ callbackUrl: `${receiver.url}${path}`, types });
  const emit = (type: WebhookType, id: string, fields: object = { status: 'active' }) =>
    sandbox.deps.store.transaction(() => services().events.emit(type, id, { id, ...fields }));
  const advanceTo = (t: number) => services().scheduler.advance(t);
  const runDue = () => advanceTo(sandbox.deps.clock.now());
  const deliveryRows = () => sandbox.deps.store.db.select().from(deliveries).all();
  const attemptRows = (deliveryId: string) =>
    sandbox.deps.store.db.select().from(attempts).where(eq(attempts.deliveryId, deliveryId)).orderBy(asc(attempts.attempt)).all();
  const attemptHeaders = () => receiver.requests.map((r) => Number(r.headers['sandbox-delivery-attempt']));

  it('delivers each event to every webhook subscribed to its type at event time, verifiable with the published key', async () => {
    const cardsOnly = subscribe(['card.updated'], '/cards');
    const both = subscribe(['customer.updated', 'card.updated'], '/both');
    const cardEvent = emit('card.updated', 'card-1');
    const customerEvent = emit('customer.updated', 'customer-1', { status: 'verifying', externalId: 'ext-1' });
    emit('account.updated', 'account-1'); // nobody subscribes to it
    // A later change of types does not add deliveries for events already emitted.
    services().webhooks.put({ id: cardsOnly.id, callbackUrl: cardsOnly.callbackUrl, types: ['card.updated', 'account.updated'] });

    await runDue();

    expect(receiver.requests.map((r) => `${r.path} ${r.headers['sandbox-event-id']}`).sort()).toEqual(
      [`/both ${cardEvent}`, `/both ${customerEvent}`, `/cards ${cardEvent}`].sort(),
    );
    const verification = (await sandbox.json('GET', '/v1/webhooks/verification-key')).body;
    const key = publicKeyFrom(verification);
    for (const request of receiver.requests) {
      expect(await verifyWithLibrary(request, key, verification.keyId)).toBe(true);
      expect(verifyWithNodeCrypto(request, key, verification.keyId)).toBe(true);
      const eventId = request.headers['sandbox-event-id'] as string;
      expect(request.body.toString()).toBe(services().events.get(eventId)!.body);
      expect(request.headers['sandbox-delivery-attempt']).toBe('1');
      const created = Number(/created=(\d+)/.exec(request.headers['signature-input'] as string)![1]);
      expect(Math.abs(created - Date.now() / 1000)).toBeLessThan(60); // wall clock, not the sandbox's T0
    }
    expect(JSON.parse(receiver.requests.find((r) => r.headers['sandbox-event-id'] === customerEvent)!.body.toString())).toEqual({
      webhookType: 'customer.updated',
      eventId: customerEvent,
      id: 'customer-1',
      status: 'verifying',
      externalId: 'ext-1',
    });
    const summary = deliveryRows().map((d) => `${d.webhookId} ${d.status} ${d.attempts} ${d.nextAttemptAt}`);
    expect(summary.sort()).toEqual([`${cardsOnly.id} delivered 1 null`, `${both.id} delivered 1 null`, `${both.id} delivered 1 null`].sort());
    for (const d of deliveryRows()) expect(attemptRows(d.id)).toEqual([expect.objectContaining({ attempt: 1, at: T0, statusCode: 200, error: null })]);

    await advanceTo(T0 + 48 * H);
    expect(receiver.requests).toHaveLength(3);
  });

  it('retries a failing receiver on the documented schedule for 24 h of sandbox time, then discards, then sends nothing', async () => {
    await setUp(steadyRandom(7, 0.5));
    receiver.answer(500);
    subscribe(['card.updated']);
    const eventId = emit('card.updated', 'card-1');

    const { ran } = await advanceTo(T0 + 25 * H);

    expect(ran).toBeGreaterThanOrEqual(SCHEDULE_S.length);
    expect(attemptHeaders()).toEqual(SCHEDULE_S.map((_, i) => i + 1));
    const [delivery] = deliveryRows();
    expect(delivery).toMatchObject({ status: 'discarded', attempts: SCHEDULE_S.length, firstAttemptAt: T0, nextAttemptAt: null });
    expect(attemptRows(delivery!.id).map((a) => [(a.at - T0) / S, a.statusCode])).toEqual(SCHEDULE_S.map((s) => [s, 500]));
    const key = publicKeyFrom(services().webhooks.verificationKey());
    for (const request of receiver.requests) {
      expect(request.headers['sandbox-event-id']).toBe(eventId);
      expect(verifyWithNodeCrypto(request, key, services().webhooks.verificationKey().keyId)).toBe(true);
    }
    expect(reports.map((r) => r.status)).toEqual([...SCHEDULE_S.slice(1).map(() => 'pending'), 'discarded']);
    expect(reports[0]).toMatchObject({ eventId, deliveryId: delivery!.id, attempt: 1, at: T0, statusCode: 500, nextAttemptAt: T0 });
    expect(reports[5]).toMatchObject({ attempt: 6, at: T0 + 37 * S, nextAttemptAt: T0 + 97 * S });

    await advanceTo(T0 + 72 * H);
    expect(receiver.requests).toHaveLength(SCHEDULE_S.length);
  });

  it('records refused connections as errors and delivers once the receiver answers 2xx', async () => {
    const down = await startTestReceiver();
    const url = down.url;
    await down.close();
    const hook = services().webhooks.put({ callbackUrl: `${url}/hook`, types: ['card.updated'] });
    emit('card.updated', 'card-1');
    await advanceTo(T0 + 2 * S); // attempts at 0, 0, 1 s
    const [delivery] = deliveryRows();
    expect(attemptRows(delivery!.id).map((a) => [a.statusCode, a.error?.includes('ECONNREFUSED')])).toEqual([
      [null, true],
      [null, true],
      [null, true],
    ]);

    receiver.answer((request) => (request.headers['sandbox-delivery-attempt'] === '4' ? 204 : 503));
    services().webhooks.put({ id: hook.id, callbackUrl: `${receiver.url}/hook`, types: ['card.updated'] });
    await advanceTo(T0 + 48 * H);
    expect(attemptHeaders()).toEqual([4]);
    expect(deliveryRows()[0]).toMatchObject({ status: 'delivered', attempts: 4, nextAttemptAt: null });
    expect(reports.at(-1)).toMatchObject({ attempt: 4, statusCode: 204, status: 'delivered' });
  });

  it('re-points pending retries when the webhook is updated to a new callbackUrl, signing the new path', async () => {
    receiver.answer(500);
    const hook = subscribe(['card.updated'], '/old');
    emit('card.updated', 'card-1');
    await runDue(); // attempts 1 and 2 fail
    receiver.answer(200);
    services().webhooks.put({ id: hook.id, callbackUrl: `${receiver.url}/new`, types: ['card.updated'] });
    await advanceTo(T0 + 10 * S);
    expect(receiver.requests.map((r) => `${r.path} ${r.headers['sandbox-delivery-attempt']}`)).toEqual(['/old 1', '/old 2', '/new 3']);
    const { keyId } = services().webhooks.verificationKey();
    expect(verifyWithNodeCrypto(receiver.requests[2]!, publicKeyFrom(services().webhooks.verificationKey()), keyId)).toBe(true);
  });

  it('stops the pending deliveries of a deleted webhook; other webhooks still receive', async () => {
    receiver.answer((request) => (request.path === '/gone' ? 500 : 200));
    const gone = subscribe(['card.updated'], '/gone');
    emit('card.updated', 'card-1');
    await runDue();
    expect((await sandbox.request('DELETE', `/v1/webhooks/${gone.id}`)).status).toBe(204);
    subscribe(['card.updated'], '/kept');
    emit('card.updated', 'card-2');
    await advanceTo(T0 + 25 * H);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/gone', '/gone', '/kept']);
    expect(deliveryRows().map((d) => [d.callbackUrl.slice(-5), d.status, d.nextAttemptAt])).toEqual([
      ['/gone', 'discarded', null],
      ['/kept', 'delivered', null],
    ]);
  });

  it('resends an event to the webhooks subscribed now: same bytes and event id, attempts from 1', async () => {
    const first = subscribe(['card.updated'], '/first');
    const eventId = emit('card.updated', 'card-1');
    await runDue();
    await sandbox.request('DELETE', `/v1/webhooks/${first.id}`);
    const second = subscribe(['card.updated'], '/second');
    subscribe(['customer.updated'], '/customers');

    const resent = services().webhooks.resend(eventId);

    expect(resent).toEqual([{ id: expect.any(String), webhookId: second.id, callbackUrl: `${receiver.url}/second` }]);
    await runDue();
    expect(receiver.requests.map((r) => `${r.path} ${r.headers['sandbox-delivery-attempt']}`)).toEqual(['/first 1', '/second 1']);
    expect(receiver.requests[1]!.body.equals(receiver.requests[0]!.body)).toBe(true);
    expect(receiver.requests[1]!.headers['sandbox-event-id']).toBe(eventId);
    expect(() => services().webhooks.resend('00000000-0000-4000-8000-000000000000')).toThrow(expect.objectContaining({ code: 'event_not_found' }));
    const customerEvent = emit('customer.updated', 'customer-1');
    await sandbox.request('DELETE', `/v1/webhooks/${(await sandbox.json('GET', '/v1/webhooks')).body.at(-1).id}`);
    expect(services().webhooks.resend(customerEvent)).toEqual([]);
  });

  describe('in real time', () => {
    it('drains a burst without time travel, woken by the event commit, each event once', async () => {
      services().scheduler.start();
      subscribe(['card.updated']);
      const count = 500;
      const ids = sandbox.deps.store.transaction(() =>
        Array.from({ length: count }, (_, i) => services().events.emit('card.updated', `card-${i}`, { id: `card-${i}` })),
      );
      await receiver.waitFor(count, 60_000);
      await services().webhooks.idle();
      expect(new Set(receiver.requests.map((r) => r.headers['sandbox-event-id']))).toEqual(new Set(ids));
      expect(receiver.requests).toHaveLength(count);
      expect(deliveryRows().every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
    });

    it(`keeps at most its share of the ${MAX_IN_FLIGHT} attempts and their sockets on a hanging receiver, and API requests are still answered`, async () => {
      // A programme alone takes half the pool at most, and one of its subscriptions half of that (send-pool.ts).
      const share = MAX_IN_FLIGHT / 4;
      receiver.answer('hang');
      services().scheduler.start();
      subscribe(['card.updated']);
      sandbox.deps.store.transaction(() => {
        for (let i = 0; i < 100; i++) services().events.emit('card.updated', `card-${i}`, { id: `card-${i}` });
      });
      await receiver.waitFor(share);
      // A round of the pump after the share went out starts nothing more.
      await steady(services().webhooks.dispatcher.source, () => services().webhooks.dispatcher.inFlight);
      expect(receiver.requests).toHaveLength(share);
      expect(receiver.connections).toBe(share);
      expect(services().webhooks.dispatcher.inFlight).toBe(share);
      expect(sandbox.deps.shared.pool.active).toBe(share);
      const res = await sandbox.json('GET', '/v1/webhooks');
      expect(res.status).toBe(200);
      expect(await services().webhooks.drain(100)).toBe(false);
    });

    it('drain waits for the attempts in flight, records them, and starts no new ones', async () => {
      services().scheduler.start();
      subscribe(['card.updated']);
      emit('card.updated', 'card-1');
      await receiver.waitFor(1);
      expect(await services().webhooks.drain(5000)).toBe(true);
      expect(deliveryRows()[0]).toMatchObject({ status: 'delivered', attempts: 1 });
      emit('card.updated', 'card-2');
      // A round of the pump after the event starts no attempt for it.
      await steady(services().webhooks.dispatcher.source, () => services().webhooks.dispatcher.inFlight);
      expect(services().webhooks.dispatcher.inFlight).toBe(0);
      expect(receiver.requests).toHaveLength(1);
    });
  });
});
