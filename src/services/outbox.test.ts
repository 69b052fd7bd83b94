/**
 * The event outbox: one event row per change, written in the changing transaction with its body
 * serialised once, one pending delivery per subscribed webhook, and listeners told only of
 * events that committed.
 */
import { describe, expect, it } from 'vitest';
import type { WebhookType } from '../domain/outbox.js';
import { deliveries, events, webhooks } from '../store/schema.js';
import { createTestSandbox, T0 } from '../testing/harness.js';
import type { EventRecord } from './outbox.js';

function setUp() {
  const sandbox = createTestSandbox();
  const { store } = sandbox.deps;
  const heard: EventRecord[] = [];
  sandbox.deps.services.events.subscribe((event) => heard.push(event));
  const hook = (id: string, types: WebhookType[]) =>
    store.db
      .insert(webhooks)
      .values({ programmeId: 'default', id, callbackUrl: `http://127.0.0.1:9/${id}`, types, createdAt: T0, updatedAt: T0 })
      .run();
  return { sandbox, store, events: sandbox.deps.services.events, heard, hook };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('events.emit', () => {
  it('writes the event with its body serialised once, and a delivery per subscribed webhook', async () => {
    const { store, events: service, heard, hook } = setUp();
    hook('h-cards', ['card.updated']);
    hook('h-all', ['card.updated', 'customer.updated']);
    hook('h-customers', ['customer.updated']);
    const id = store.transaction(() => service.emit('card.updated', 'card-1', { id: 'card-1', status: 'active' }));
    const row = store.db.select().from(events).get()!;
    expect(row).toMatchObject({ id, type: 'card.updated', entityId: 'card-1', createdAt: T0 });
    expect(row.body).toBe(JSON.stringify({ webhookType: 'card.updated', eventId: id, id: 'card-1', status: 'active' }));
    const rows = store.db.select().from(deliveries).all();
    expect(rows.map((d) => d.webhookId).sort()).toEqual(['h-all', 'h-cards']);
    expect(rows.every((d) => d.status === 'pending' && d.nextAttemptAt === T0 && d.eventId === id)).toBe(true);
    await settle();
    expect(heard.map((e) => e.id)).toEqual([id]);
  });

  it('leaves nothing behind and tells nobody when the transaction rolls back', async () => {
    const { store, events: service, heard, hook } = setUp();
    hook('h', ['card.updated']);
    expect(() =>
      store.transaction(() => {
        service.emit('card.updated', 'card-1', { id: 'card-1' });
        throw new Error('the change failed');
      }),
    ).toThrow('the change failed');
    await settle();
    expect(store.db.select().from(events).all()).toEqual([]);
    expect(store.db.select().from(deliveries).all()).toEqual([]);
    expect(heard).toEqual([]);
  });

  it('tells listeners of every event of a transaction, in order, after it commits', async () => {
    const { store, events: service, heard } = setUp();
    let heardDuring = -1;
    const ids = store.transaction(() => {
      const first = service.emit('customer.updated', 'c', { id: 'c', status: 'screening' });
      const second = service.emit('customer.updated', 'c', { id: 'c', status: 'verifying' });
      heardDuring = heard.length;
      return [first, second];
    });
    expect(heardDuring).toBe(0);
    await settle();
    expect(heard.map((e) => e.id)).toEqual(ids);
  });

  it('keeps other listeners going when one throws', async () => {
    const { sandbox, store, events: service, heard } = setUp();
    service.subscribe(() => {
      throw new Error('listener broke');
    });
    const after: string[] = [];
    service.subscribe((event) => after.push(event.id));
    store.transaction(() => service.emit('card.updated', 'card-1', { id: 'card-1' }));
    store.transaction(() => service.emit('card.updated', 'card-1', { id: 'card-1' }));
    await settle();
    expect(heard).toHaveLength(2);
    expect(after).toEqual(heard.map((e) => e.id));
    expect(sandbox.log.lines.some((l) => l.level === 'error' && l.message === 'event listener failed')).toBe(true);
  });
});
