/**
 * Delivery controls (docs/webhooks.md: Webhooks → The delivery lab) against a real loopback receiver: pause
 * and resume all deliveries or one subscription's, with events queueing meanwhile; retry one
 * delivery now; exhaust one; resend every event of a window and/or type; and the webhook mirror
 * on the control plane.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import type { WebhookType } from '../domain/outbox.js';
import { createTestSandbox, steadyRandom, T0, type TestSandbox } from '../testing/harness.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';

const S = 1000;
const H = 3600 * S;
const CARD = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('delivery controls', () => {
  let sandbox: TestSandbox;
  let receiver: Receiver;

  beforeEach(async () => {
    receiver = await startTestReceiver();
    sandbox = createTestSandbox({}, { random: steadyRandom(7, 0.5) });
  });
  afterEach(async () => {
    await receiver.close();
    await sandbox.deps.services.webhooks.drain(2000);
  });

  const services = () => sandbox.deps.services;
  const control = async (method: string, path: string, body?: unknown) => sandbox.json(method, `/_sandbox${path}`, { token: false, body });
  const subscribe = (path = '/hook', types: WebhookType[] = ['card.updated', 'customer.updated']) =>
    services().webhooks.put({ callbackUrl: `${receiver.url}${path}`, types });
  const emit = (status: string, type: WebhookType = 'card.updated') =>
    sandbox.deps.store.transaction(() => services().events.emit(type, CARD, { id: CARD, status }));
  const advanceTo = (t: number) => services().scheduler.advance(t);
  const deliveries = async () => (await control('GET', '/events')).body.flatMap((e: { deliveries: unknown[] }) => e.deliveries);
  const received = () => receiver.requests.map((r) => `${r.path} ${JSON.parse(r.body.toString()).status}`);

  it('pause → events queue → resume delivers them all', async () => {
    subscribe();
    expect((await control('POST', '/webhooks/pause')).body).toEqual({ scope: 'programme', paused: true, deliveries: 0 });
    for (const status of ['issuing', 'active', 'inactive']) emit(status);
    await advanceTo(T0 + 2 * H);
    expect(receiver.requests).toHaveLength(0);
    expect(await deliveries()).toEqual(Array.from({ length: 3 }, () => expect.objectContaining({ status: 'pending', attempts: 0, paused: true })));
    expect((await deliveries())[0]).not.toHaveProperty('nextAttemptAt');

    expect((await control('POST', '/webhooks/resume')).body).toEqual({ scope: 'programme', paused: false, deliveries: 3 });
    await advanceTo(T0 + 2 * H);
    // Attempts due together go out together: their order of arrival is not kept.
    expect(received().sort()).toEqual(['/hook active', '/hook inactive', '/hook issuing']);
    expect(await deliveries()).toEqual(Array.from({ length: 3 }, () => expect.objectContaining({ status: 'delivered', attempts: 1 })));
  });

  it("pauses one subscription's deliveries, retries included, and keeps their due times; others go on", async () => {
    receiver.answer((request) => (request.path === '/paused' && request.headers['sandbox-delivery-attempt'] === '1' ? 500 : 200));
    const paused = subscribe('/paused');
    subscribe('/open');
    emit('issuing');
    await advanceTo(T0); // to /paused: attempt 1 fails, the immediate retry is delivered
    receiver.answer((request) => (request.path === '/paused' ? 500 : 200));
    emit('active');
    await advanceTo(T0);
    // The second event's delivery to /paused failed twice; its next attempt is due at T0 + 1 s.
    const pending = (await deliveries()).find((d: { status: string }) => d.status === 'pending');
    expect(pending).toMatchObject({ callbackUrl: `${receiver.url}/paused`, attempts: 2, nextAttemptAt: new Date(T0 + S).toISOString() });

    expect((await control('POST', `/webhooks/${paused.id}/pause`)).body).toEqual({ scope: 'webhook', webhookId: paused.id, paused: true, deliveries: 1 });
    receiver.answer(200);
    emit('inactive');
    await advanceTo(T0 + H);
    expect(
      received()
        .filter((r) => r.startsWith('/open'))
        .sort(),
    ).toEqual(['/open active', '/open inactive', '/open issuing']);
    expect(received().filter((r) => r.startsWith('/paused')).length).toBe(4);

    expect((await control('POST', `/webhooks/${paused.id}/resume`)).body).toMatchObject({ paused: false, deliveries: 2 });
    await advanceTo(T0 + H);
    expect(
      received()
        .filter((r) => r.startsWith('/paused'))
        .slice(4),
    ).toEqual(expect.arrayContaining(['/paused active', '/paused inactive']));
    expect((await deliveries()).every((d: { status: string }) => d.status === 'delivered')).toBe(true);
  });

  it('keeps a subscription held while the programme is paused, and lets it go when both resume', async () => {
    const hook = subscribe();
    await control('POST', '/webhooks/pause');
    await control('POST', `/webhooks/${hook.id}/pause`);
    emit('active');
    expect((await control('POST', '/webhooks/resume')).body.deliveries).toBe(0);
    expect((await control('POST', `/webhooks/${hook.id}/resume`)).body).toEqual({ scope: 'webhook', webhookId: hook.id, paused: false, deliveries: 1 });
    await advanceTo(T0);
    expect(received()).toEqual(['/hook active']);
  });

  it('retries one delivery now, ahead of its schedule, and gives a discarded one one more attempt', async () => {
    receiver.answer(503);
    subscribe();
    emit('active');
    await advanceTo(T0 + 40 * S); // attempts at 0, 0, 1, 3, 7 and 37 s; the next is due at 97 s
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ attempts: 6, nextAttemptAt: new Date(T0 + 97 * S).toISOString() });
    receiver.answer(200);
    const retried = await control('POST', `/deliveries/${delivery.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: delivery.id, eventId: expect.any(String), status: 'pending', nextAttemptAt: new Date(T0 + 40 * S).toISOString() });
    await advanceTo(T0 + 40 * S);
    expect((await deliveries())[0]).toMatchObject({ status: 'delivered', attempts: 7 });
    expect((await control('POST', `/deliveries/${delivery.id}/retry`)).body).toMatchObject({
      status: 409,
      code: 'invalid_state_transition',
      detail: expect.stringContaining('resend'),
    });
  });

  it('exhausts a delivery: discarded at once, and nothing more is sent', async () => {
    receiver.answer(500);
    subscribe();
    emit('active');
    await advanceTo(T0);
    const [delivery] = await deliveries();
    const exhausted = await control('POST', `/deliveries/${delivery.id}/exhaust`);
    expect(exhausted.status).toBe(200);
    expect(exhausted.body).toEqual({
      id: delivery.id,
      eventId: expect.any(String),
      webhookId: delivery.webhookId,
      callbackUrl: delivery.callbackUrl,
      status: 'discarded',
      attempts: 2,
    });
    await advanceTo(T0 + 48 * H);
    expect(receiver.requests).toHaveLength(2);
    expect((await control('POST', `/deliveries/${delivery.id}/exhaust`)).status).toBe(200);

    // A discarded delivery may be tried once more; its 24 h are over, so a failure discards it again.
    const retried = await control('POST', `/deliveries/${delivery.id}/retry`);
    expect(retried.body.status).toBe('pending');
    await advanceTo(T0 + 48 * H);
    expect(receiver.requests).toHaveLength(3);
    expect((await deliveries())[0]).toMatchObject({ status: 'discarded', attempts: 3 });
  });

  it('resends every event of a window and/or type, oldest first', async () => {
    subscribe();
    const early = emit('issuing');
    await advanceTo(T0 + H);
    const customer = emit('active', 'customer.updated');
    const late = emit('active');
    await advanceTo(T0 + 2 * H);
    receiver.requests.length = 0;

    const window = await control('POST', '/events/resend', { since: new Date(T0 + H).toISOString(), type: 'card.updated' });
    expect(window.status).toBe(202);
    expect(window.body).toEqual({
      events: 1,
      deliveries: [{ id: expect.any(String), eventId: late, webhookId: expect.any(String), callbackUrl: `${receiver.url}/hook` }],
    });
    expect(
      (await control('POST', '/events/resend', { until: new Date(T0 + H).toISOString() })).body.deliveries.map((d: { eventId: string }) => d.eventId),
    ).toEqual([early]);
    expect((await control('POST', '/events/resend', { type: 'customer.updated' })).body.deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([
      customer,
    ]);
    expect((await control('POST', '/events/resend', { since: '2030-01-01' })).body).toEqual({ events: 0, deliveries: [] });
    await advanceTo(T0 + 2 * H);
    expect(receiver.requests.map((r) => r.headers['sandbox-event-id']).sort()).toEqual([late, early, customer].sort());
  });

  it('keeps faults, pauses and held deliveries across a restart on the same database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-lab-'));
    try {
      const file = join(dir, 'sandbox.db');
      const first = createTestSandbox({}, { store: openStore(file) });
      const hook = first.deps.services.webhooks.put({ callbackUrl: `${receiver.url}/hook`, types: ['card.updated'] });
      await first.json('PUT', '/_sandbox/webhooks/faults', { token: false, body: { fail: { status: 503, times: 2 } } });
      await first.json('POST', `/_sandbox/webhooks/${hook.id}/pause`, { token: false });
      first.deps.store.transaction(() => first.deps.services.events.emit('card.updated', CARD, { id: CARD, status: 'active' }));
      // Listeners hear of the commit in a microtask: let them, then stop.
      await new Promise((resolve) => setImmediate(resolve));
      first.deps.store.close();

      sandbox = createTestSandbox({}, { store: openStore(file) });
      expect((await control('GET', '/webhooks/faults')).body.faults).toEqual({ fail: { status: 503, times: 2, remaining: 2 } });
      expect(await deliveries()).toEqual([expect.objectContaining({ status: 'pending', paused: true })]);
      await advanceTo(T0 + H);
      expect(receiver.requests).toHaveLength(0);
      expect((await control('POST', `/webhooks/${hook.id}/resume`)).body.deliveries).toBe(1);
      await advanceTo(T0 + H + 2 * S);
      // Two injected failures (at once and the immediate retry), then the receiver 1 s later.
      expect(received()).toEqual(['/hook active']);
      expect((await deliveries())[0]).toMatchObject({ status: 'delivered', attempts: 3 });
      sandbox.deps.store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('mirrors /v1/webhooks on the control plane: no token needed', async () => {
    const created = await control('PUT', '/webhooks', { callbackUrl: `${receiver.url}/mirror`, types: ['card.updated'] });
    expect(created.status).toBe(200);
    expect((await control('GET', '/webhooks')).body).toEqual([created.body]);
    expect((await control('GET', '/webhooks/verification-key')).body).toEqual(services().webhooks.verificationKey());
    emit('active');
    await advanceTo(T0);
    expect(received()).toEqual(['/mirror active']);
    expect((await control('DELETE', `/webhooks/${created.body.id}`)).status).toBe(204);
    expect((await sandbox.json('GET', '/v1/webhooks')).body).toEqual([]);
  });
});
