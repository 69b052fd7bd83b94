import { describe, expect, it } from 'vitest';
import type { WebhookType } from '../../domain/outbox.js';
import { attempts, deliveries, webhooks } from '../../store/schema.js';
import { T0, createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { openStream } from '../../testing/sse.js';
import { until } from '../../testing/wait.js';

const CUSTOMER = '0f8fad5b-d9cb-469f-a165-70867728950e';
const CARD = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const HOOK = 'e1b2c3d4-0000-4000-8000-000000000001';

/** Emits an event the way the services do: inside a transaction, with the entity as GET returns it. */
function emit(sb: TestSandbox, type: 'customer.updated' | 'card.updated', entityId: string, status: string) {
  return sb.deps.store.transaction(() => sb.deps.services.events.emit(type, entityId, { id: entityId, status }));
}

function subscribe(sb: TestSandbox, types: WebhookType[]) {
  sb.deps.store.db
    .insert(webhooks)
    .values({ programmeId: 'default', id: HOOK, callbackUrl: 'http://127.0.0.1:9/hook', types, createdAt: T0, updatedAt: T0 })
    .run();
}

describe('GET /_sandbox/events', () => {
  it('lists events newest first with the state of their deliveries', async () => {
    const sb = createTestSandbox();
    subscribe(sb, ['card.updated']);
    const first = emit(sb, 'customer.updated', CUSTOMER, 'active');
    const second = emit(sb, 'card.updated', CARD, 'active');
    const res = await sb.json('GET', '/_sandbox/events', { token: false });
    expect(res.status).toBe(200);
    expect(res.body.map((e: { id: string }) => e.id)).toEqual([second, first]);
    expect(res.body[0]).toMatchObject({ type: 'card.updated', entityId: CARD, createdAt: '2026-03-01T09:00:00.000Z' });
    expect(res.body[0].deliveries).toEqual([
      {
        id: expect.any(String),
        webhookId: HOOK,
        callbackUrl: 'http://127.0.0.1:9/hook',
        status: 'pending',
        attempts: 0,
        nextAttemptAt: '2026-03-01T09:00:00.000Z',
      },
    ]);
    expect(res.body[1].deliveries).toEqual([]);
  });

  it('filters by type and entity, and pages with limit and before', async () => {
    const sb = createTestSandbox();
    const ids = [emit(sb, 'card.updated', CARD, 'issuing'), emit(sb, 'customer.updated', CUSTOMER, 'active'), emit(sb, 'card.updated', CARD, 'active')];
    const list = async (query: string) => (await sb.json('GET', `/_sandbox/events${query}`, { token: false })).body.map((e: { id: string }) => e.id);
    expect(await list('?type=card.updated')).toEqual([ids[2], ids[0]]);
    expect(await list(`?entityId=${CUSTOMER}`)).toEqual([ids[1]]);
    expect(await list(`?type=customer.updated&entityId=${CARD}`)).toEqual([]);
    expect(await list('?limit=2')).toEqual([ids[2], ids[1]]);
    expect(await list(`?limit=2&before=${ids[1]}`)).toEqual([ids[0]]);
  });

  it.each([
    ['?type=card.created', 'type'],
    ['?entityId=42', 'entityId'],
    ['?limit=0', 'limit'],
    ['?limit=1001', 'limit'],
    ['?limit=ten', 'limit'],
    ['?before=nope', 'before'],
  ])('refuses %s with a 400 naming %s', async (query, path) => {
    const sb = createTestSandbox();
    const res = await sb.json('GET', `/_sandbox/events${query}`, { token: false });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    // In the house's words, never the schema library's.
    expect(res.body.errors[0].message).toMatch(/^must be /);
  });

  it('answers 404 for an unknown page cursor', async () => {
    const sb = createTestSandbox();
    const res = await sb.json('GET', `/_sandbox/events?before=${CARD}`, { token: false });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('event_not_found');
  });
});

describe('GET /_sandbox/events/{eventId}', () => {
  it('shows the body as sent and every delivery with every attempt', async () => {
    const sb = createTestSandbox();
    subscribe(sb, ['card.updated']);
    const id = emit(sb, 'card.updated', CARD, 'active');
    const delivery = sb.deps.store.db.select().from(deliveries).get()!;
    sb.deps.store.db.update(deliveries).set({ attempts: 2, status: 'delivered' }).run();
    sb.deps.store.db
      .insert(attempts)
      .values([
        { programmeId: 'default', id: 'a1', deliveryId: delivery.id, attempt: 1, at: T0, error: 'connect ECONNREFUSED', durationMs: 3 },
        { programmeId: 'default', id: 'a2', deliveryId: delivery.id, attempt: 2, at: T0 + 1000, statusCode: 200, durationMs: 12 },
      ])
      .run();

    const res = await sb.json('GET', `/_sandbox/events/${id}`, { token: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      type: 'card.updated',
      entityId: CARD,
      createdAt: '2026-03-01T09:00:00.000Z',
      body: { webhookType: 'card.updated', eventId: id, id: CARD, status: 'active' },
      deliveries: [
        {
          id: delivery.id,
          webhookId: HOOK,
          callbackUrl: 'http://127.0.0.1:9/hook',
          status: 'delivered',
          attempts: 2,
          history: [
            { attempt: 1, at: '2026-03-01T09:00:00.000Z', error: 'connect ECONNREFUSED', durationMs: 3 },
            { attempt: 2, at: '2026-03-01T09:00:01.000Z', statusCode: 200, durationMs: 12 },
          ],
        },
      ],
    });
  });

  it('answers 404 event_not_found for an unknown event and 400 for a malformed id', async () => {
    const sb = createTestSandbox();
    const missing = await sb.json('GET', `/_sandbox/events/${CARD}`, { token: false });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ title: 'Event not found', code: 'event_not_found' });
    const malformed = await sb.json('GET', '/_sandbox/events/not-a-uuid', { token: false });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].path).toBe('eventId');
  });
});

describe('GET /_sandbox/events/stream', () => {
  it('streams committed events as they happen, filtered, and not rolled-back ones', async () => {
    const sb = createTestSandbox();
    const res = await sb.request('GET', '/_sandbox/events/stream', { token: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    await res.body!.cancel();
    const stream = await openStream(sb, `?entityId=${CARD}`);
    emit(sb, 'customer.updated', CUSTOMER, 'active');
    expect(() =>
      sb.deps.store.transaction(() => {
        sb.deps.services.events.emit('card.updated', CARD, { id: CARD, status: 'never' });
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    const issued = emit(sb, 'card.updated', CARD, 'issuing');
    const active = emit(sb, 'card.updated', CARD, 'active');
    const messages = await stream.next(2);
    expect(messages.map((m) => [m.event, m.id, m.data.body.status])).toEqual([
      ['event', issued, 'issuing'],
      ['event', active, 'active'],
    ]);
    expect(messages[0]!.data).toEqual({
      kind: 'event',
      id: issued,
      type: 'card.updated',
      entityId: CARD,
      createdAt: '2026-03-01T09:00:00.000Z',
      body: { webhookType: 'card.updated', eventId: issued, id: CARD, status: 'issuing' },
    });
  });

  it('stops listening when the client goes away', async () => {
    const sb = createTestSandbox();
    const events = sb.deps.services.events;
    const subscribe = events.subscribe;
    let listening = 0;
    events.subscribe = (listener) => {
      listening++;
      const off = subscribe(listener);
      return () => {
        listening--;
        return off();
      };
    };
    const stream = await openStream(sb);
    expect(listening).toBe(1);
    emit(sb, 'card.updated', CARD, 'active');
    await stream.next(1);
    await until(() => listening === 0, 'the stream to unsubscribe');
  });

  it('refuses a bad filter', async () => {
    const sb = createTestSandbox();
    const res = await sb.json('GET', '/_sandbox/events/stream?type=nope', { token: false });
    expect(res.status).toBe(400);
  });
});
