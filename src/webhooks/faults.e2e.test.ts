/**
 * Faults on demand (docs/webhooks.md: Webhooks → The delivery lab), set on the control plane and met by a
 * real loopback receiver: duplicates with the same bytes and valid signatures, a later update
 * overtaking an earlier one, delays, injected statuses and timeouts on the documented retry
 * schedule, a subscription's own faults, every fault recorded on its attempt and streamed, and the
 * same faults on every run with a seed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookType } from '../domain/outbox.js';
import { createTestSandbox, steadyRandom, T0, type TestSandbox } from '../testing/harness.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { openStream } from '../testing/sse.js';
import { publicKeyFrom, verifyWithLibrary, verifyWithNodeCrypto } from '../testing/webhook-verifiers.js';

const S = 1000;
const CARD = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const OTHER_CARD = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('webhook faults', () => {
  let sandbox: TestSandbox;
  let receiver: Receiver;

  const setUp = () => {
    // Jitter at its midpoint: the documented schedule exactly.
    sandbox = createTestSandbox({}, { random: steadyRandom(7, 0.5) });
  };
  beforeEach(async () => {
    receiver = await startTestReceiver();
    setUp();
  });
  afterEach(async () => {
    await receiver.close();
    await sandbox.deps.services.webhooks.drain(2000);
  });

  const services = () => sandbox.deps.services;
  const control = async (method: string, path: string, body?: unknown) => sandbox.json(method, `/_sandbox${path}`, { token: false, body });
  const setFaults = async (faults: unknown, webhookId?: string) => {
    const res = await control('PUT', webhookId ? `/webhooks/${webhookId}/faults` : '/webhooks/faults', faults);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const subscribe = (types: WebhookType[] = ['card.updated'], path = '/hook') => services().webhooks.put({ callbackUrl: `${receiver.url}${path}`, types });
  const emit = (id: string, status: string) => sandbox.deps.store.transaction(() => services().events.emit('card.updated', id, { id, status }));
  const advanceTo = (t: number) => services().scheduler.advance(t);
  const history = async (eventId: string) => (await control('GET', `/events/${eventId}`)).body.deliveries.flatMap((d: { history: unknown[] }) => d.history);
  const statuses = () => receiver.requests.map((r) => JSON.parse(r.body.toString()).status as string);

  it('at duplicate=1 sends each event twice: the same bytes and eventId, each copy freshly and validly signed', async () => {
    await setFaults({ duplicate: 1 });
    subscribe();
    const ids = [emit(CARD, 'issuing'), emit(OTHER_CARD, 'active')];
    await advanceTo(T0);

    expect(receiver.requests).toHaveLength(4);
    const verification = services().webhooks.verificationKey();
    const key = publicKeyFrom(verification);
    for (const eventId of ids) {
      const copies = receiver.requests.filter((r) => r.headers['sandbox-event-id'] === eventId);
      expect(copies).toHaveLength(2);
      const [original, copy] = copies as [(typeof copies)[0], (typeof copies)[0]];
      expect(copy.body.equals(original.body)).toBe(true);
      expect(JSON.parse(copy.body.toString()).eventId).toBe(eventId);
      expect([original.headers['sandbox-delivery-attempt'], copy.headers['sandbox-delivery-attempt']]).toEqual(['1', '2']);
      expect(copy.headers.signature).not.toBe(original.headers.signature);
      for (const request of copies) {
        expect(verifyWithNodeCrypto(request, key, verification.keyId)).toBe(true);
        expect(await verifyWithLibrary(request, key, verification.keyId)).toBe(true);
      }
      expect(await history(eventId)).toEqual([
        expect.objectContaining({ attempt: 1, statusCode: 200, response: { contentType: 'application/json', body: '{}' } }),
        expect.objectContaining({ attempt: 2, statusCode: 200, fault: 'duplicate' }),
      ]);
      expect((await history(eventId))[0]).not.toHaveProperty('fault');
    }
    expect((await control('GET', '/events')).body.flatMap((e: { deliveries: unknown[] }) => e.deliveries)).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 2 }),
      expect.objectContaining({ status: 'delivered', attempts: 2 }),
    ]);
  });

  it('at reorder=1, for one entity the later update arrives first, and the earlier one records reordered', async () => {
    await setFaults({ reorder: 1 });
    subscribe();
    const issuing = emit(CARD, 'issuing');
    const active = emit(CARD, 'active');
    await advanceTo(T0);
    expect(statuses()).toEqual(['active', 'issuing']);
    expect(await history(issuing)).toEqual([expect.objectContaining({ attempt: 1, at: new Date(T0).toISOString(), statusCode: 200, fault: 'reordered' })]);
    expect((await history(active))[0]).not.toHaveProperty('fault');
  });

  it('holds a lone event back for a minute at most, then sends it as delayed; it waits for a later one that is still being retried', async () => {
    await setFaults({ reorder: 1 });
    subscribe();
    const lone = emit(CARD, 'issuing');
    await advanceTo(T0 + 59 * S);
    expect(receiver.requests).toHaveLength(0);
    expect((await control('GET', '/events')).body[0].deliveries[0]).toMatchObject({ status: 'pending', nextAttemptAt: new Date(T0 + 60 * S).toISOString() });
    await advanceTo(T0 + 60 * S);
    expect(await history(lone)).toEqual([expect.objectContaining({ at: new Date(T0 + 60 * S).toISOString(), fault: 'delayed' })]);

    // A later update that the receiver refuses twice: the earlier one waits until it is delivered.
    receiver.answer((request) =>
      JSON.parse(request.body.toString()).status === 'inactive' && Number(request.headers['sandbox-delivery-attempt']) < 3 ? 503 : 200,
    );
    const earlier = emit(OTHER_CARD, 'active');
    emit(OTHER_CARD, 'inactive');
    await advanceTo(T0 + 5 * 60 * S);
    expect(statuses().slice(1)).toEqual(['inactive', 'inactive', 'inactive', 'active']);
    expect(await history(earlier)).toEqual([expect.objectContaining({ fault: 'reordered' })]);
  });

  it('delays first attempts by a sandbox time drawn from the range', async () => {
    await setFaults({ delay: '10s-20s', seed: 3 });
    subscribe();
    const eventId = emit(CARD, 'active');
    await advanceTo(T0 + 9 * S);
    expect(receiver.requests).toHaveLength(0);
    await advanceTo(T0 + 20 * S);
    const [attempt] = await history(eventId);
    expect(attempt).toMatchObject({ attempt: 1, statusCode: 200, fault: 'delayed' });
    const at = Date.parse(attempt.at) - T0;
    expect(at).toBeGreaterThanOrEqual(10 * S);
    expect(at).toBeLessThanOrEqual(20 * S);
  });

  it('fail {status: 503, times: 3} records three injected attempts without sending, then delivers on the documented schedule', async () => {
    const set = await setFaults({ fail: { status: 503, times: 3 } });
    expect(set).toEqual({ scope: 'programme', faults: { fail: { status: 503, times: 3, remaining: 3 } } });
    subscribe();
    const eventId = emit(CARD, 'active');
    await advanceTo(T0 + 10 * S);

    expect(receiver.requests.map((r) => r.headers['sandbox-delivery-attempt'])).toEqual(['4']);
    // Retries come immediately, then after 1 s and 2 s (docs/webhooks.md: Webhooks).
    expect((await history(eventId)).map((a: any) => [a.attempt, (Date.parse(a.at) - T0) / S, a.statusCode, a.fault ?? null, a.durationMs])).toEqual([
      [1, 0, 503, 'injected-status', 0],
      [2, 0, 503, 'injected-status', 0],
      [3, 1, 503, 'injected-status', 0],
      [4, 3, 200, null, expect.any(Number)],
    ]);
    expect((await control('GET', '/webhooks/faults')).body.faults.fail).toEqual({ status: 503, times: 3, remaining: 0 });
  });

  it('--webhook-timeout sets how long a receiver has: one that hangs fails when it passes, and an injected timeout says it', async () => {
    sandbox = createTestSandbox({ webhookTimeoutMs: 1000 }, { random: steadyRandom(7, 0.5) });
    const hanging = await startTestReceiver('hang');
    try {
      services().webhooks.put({ callbackUrl: `${hanging.url}/hook`, types: ['card.updated'] });
      const hung = emit(CARD, 'active');
      await advanceTo(T0);
      const [first] = await history(hung);
      expect(first).toMatchObject({ attempt: 1, error: 'no response within 1 s' });
      expect(first.durationMs).toBeGreaterThanOrEqual(500);
      await setFaults({ timeout: 1 });
      const injected = emit(OTHER_CARD, 'active');
      await advanceTo(T0);
      expect((await history(injected))[0]).toMatchObject({ attempt: 1, error: 'no response within 1 s', durationMs: 1000, fault: 'injected-timeout' });
    } finally {
      await sandbox.deps.services.webhooks.drain(100);
      await hanging.close();
    }
  });

  it('timeout and fail rates answer for the receiver; clearing the faults lets the retries through', async () => {
    await setFaults({ timeout: 1 });
    subscribe();
    const eventId = emit(CARD, 'active');
    await advanceTo(T0);
    expect(await history(eventId)).toEqual([
      expect.objectContaining({ attempt: 1, error: 'no response within 10 s', durationMs: 10_000, fault: 'injected-timeout' }),
      expect.objectContaining({ attempt: 2, fault: 'injected-timeout' }),
    ]);
    await setFaults({ fail: { status: 500, rate: 1 } });
    await advanceTo(T0 + S);
    expect((await history(eventId))[2]).toMatchObject({ attempt: 3, statusCode: 500, fault: 'injected-status' });
    expect(receiver.requests).toHaveLength(0);
    expect((await control('DELETE', '/webhooks/faults')).status).toBe(204);
    await advanceTo(T0 + 3 * S);
    expect(receiver.requests).toHaveLength(1);
    expect((await history(eventId))[3]).toEqual({
      attempt: 4,
      at: new Date(T0 + 3 * S).toISOString(),
      statusCode: 200,
      durationMs: expect.any(Number),
      response: { contentType: 'application/json', body: '{}' },
    });
  });

  it("gives a subscription's own faults in place of the programme's, and back again", async () => {
    await setFaults({ duplicate: 1 });
    const plain = subscribe(['card.updated'], '/plain');
    const own = subscribe(['card.updated'], '/own');
    expect(await setFaults({}, own.id)).toEqual({ scope: 'webhook', faults: {} });
    emit(CARD, 'active');
    await advanceTo(T0);
    expect(receiver.requests.map((r) => r.path).sort()).toEqual(['/own', '/plain', '/plain']);
    expect((await control('GET', `/webhooks/${plain.id}/faults`)).body).toEqual({ scope: 'programme', faults: { duplicate: 1 } });
    expect((await control('DELETE', `/webhooks/${own.id}/faults`)).status).toBe(204);
    expect((await control('GET', `/webhooks/${own.id}/faults`)).body).toEqual({ scope: 'programme', faults: { duplicate: 1 } });
  });

  it('streams each attempt with its fault and what the receiver answered', async () => {
    receiver.answer({ status: 500, contentType: 'text/plain', body: 'handler exploded: no such card' });
    await setFaults({ fail: { status: 503, times: 1 } });
    subscribe();
    const stream = await openStream(sandbox);
    emit(CARD, 'active');
    await advanceTo(T0);
    const messages = (await stream.next(3)).filter((m) => m.event === 'attempt').map((m) => m.data);
    expect(messages).toEqual([
      expect.objectContaining({
        kind: 'attempt',
        type: 'card.updated',
        entityId: CARD,
        attempt: 1,
        statusCode: 503,
        fault: 'injected-status',
        status: 'pending',
      }),
      expect.objectContaining({
        attempt: 2,
        statusCode: 500,
        response: { contentType: 'text/plain', body: 'handler exploded: no such card' },
        status: 'pending',
      }),
    ]);
    expect(messages[1]).not.toHaveProperty('fault');
  });

  it('with a seed, the same events meet the same faults on every run', async () => {
    const faults = { duplicate: 0.4, reorder: 0.4, delay: '0s-20s', fail: { status: 503, rate: 0.3 }, timeout: 0.2 };
    const run = async (seed: number) => {
      setUp();
      await setFaults({ ...faults, seed });
      subscribe();
      const entities = [CARD, OTHER_CARD, 'c0ffee00-0000-4000-8000-000000000001'];
      const ids = Array.from({ length: 15 }, (_, i) => emit(entities[i % 3]!, `status-${i}`));
      await advanceTo(T0 + 3_600 * S);
      const seen = [];
      for (const [i, id] of ids.entries())
        for (const a of await history(id)) seen.push(`${i}#${a.attempt}@${(Date.parse(a.at) - T0) / S}:${a.fault ?? a.statusCode}`);
      await sandbox.deps.services.webhooks.drain(2000);
      return seen;
    };
    const first = await run(42);
    const second = await run(42);
    expect(second).toEqual(first);
    for (const fault of ['duplicate', 'reordered', 'delayed', 'injected-status', 'injected-timeout']) expect(first.join(' ')).toContain(fault);
    expect(await run(43)).not.toEqual(first);
  });
});
