/**
 * Events, the outbox: every change of a customer, account, card, authorisation or transaction
 * appends one `<entity>.updated` row in the caller's transaction, with the webhook body serialised
 * once (`webhookType`, `eventId`, then the entity as GET returns it), and one delivery per webhook
 * subscribed to that type at that moment (queued paused while its subscription is paused, docs/webhooks.md:
 * Webhooks → The delivery lab). Listeners (the dispatcher, the SSE stream) hear of events after
 * their transaction has committed.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Core } from './core.js';
import type { WebhookType } from '../domain/outbox.js';
import { equalsLiteral, names, once, rowInserter, sqlLiteral } from '../store/prepared.js';
import { deliveries, events, webhooks } from '../store/schema.js';

export interface EventRecord {
  id: string;
  type: WebhookType;
  entityId: string;
  body: string;
  createdAt: number;
}

export type EventListener = (event: EventRecord) => void;

export interface EventsDeps {
  /** Whether a subscription's deliveries are held (paused). */
  paused?: (webhookId: string) => boolean;
}

export function createEvents(core: Core, { paused = () => false }: EventsDeps = {}) {
  const { store, clock, ids, log, programme, tracing } = core;
  const { db } = store;
  const mine = eq(events.programmeId, programme);
  const e = names(events);
  const programmeText = sqlLiteral(programme);
  // The programme's next sequence number, taken in the inserting transaction (events_seq index).
  // Both run on every write: the programme is written into their text, or SQLite would plan their
  // max() and ORDER BY again on every run (store/prepared.ts: sqlLiteral). The insert is SQLite's
  // own statement: every column it binds is text or an integer, which drizzle would bind unchanged.
  const insertQuery = once(() =>
    store.sqlite.prepare<[string, string, string, string, string | null, number]>(
      `INSERT INTO ${e.table} (${e.programmeId}, ${e.seq}, ${e.id}, ${e.type}, ${e.entityId}, ${e.body}, ${e.traceParent}, ${e.createdAt})
       VALUES (${programmeText}, (SELECT COALESCE(MAX(${e.seq}), 0) + 1 FROM ${e.table} WHERE ${e.programmeId} = ${programmeText}), ?, ?, ?, ?, ?, ?)`,
    ),
  );
  const hooksQuery = once(() => db.select().from(webhooks).where(equalsLiteral(webhooks.programmeId, programme)).orderBy(asc(webhooks.createdAt)).prepare());
  const insertDelivery = rowInserter(store, deliveries);
  const listeners = new Set<EventListener>();
  let pending: EventRecord[] = [];

  // Listeners hear of the events of a commit together, after it, in a microtask of their own.
  const flush = () => {
    const batch = pending;
    pending = [];
    for (const event of batch) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          log.error('event listener failed', { error: String(error) });
        }
      }
    }
  };
  const committed = (record: EventRecord) => {
    if (pending.length === 0) queueMicrotask(flush);
    pending.push(record);
  };

  const service = {
    /** Appends the event for a changed entity; call inside the transaction that changed it. */
    emit(type: WebhookType, entityId: string, entity: object): string {
      const id = ids.uuid();
      const now = clock.now();
      const body = JSON.stringify({ webhookType: type, eventId: id, ...entity });
      const record = { id, type, entityId, body, createdAt: now };
      // Its deliveries' attempts continue the trace of the request or job that wrote it (docs/tracing.md: Tracing).
      insertQuery().run(id, type, entityId, body, tracing?.current() ?? null, now);
      service.queueDeliveries(id, type, now);
      // Events of a transaction that rolls back were never stored: nobody hears of them.
      store.onCommit(() => committed(record));
      return id;
    },

    /**
     * One pending delivery, due at `now`, per webhook subscribed to `type` at this moment (at
     * event time, and again for a resend). Call inside a transaction; returns the deliveries.
     */
    queueDeliveries(eventId: string, type: WebhookType, now: number) {
      const queued = [];
      for (const hook of hooksQuery().all()) {
        if (!hook.types.includes(type)) continue;
        const held = paused(hook.id);
        const delivery = {
          programmeId: programme,
          id: ids.uuid(),
          eventId,
          webhookId: hook.id,
          callbackUrl: hook.callbackUrl,
          status: 'pending' as const,
          nextAttemptAt: held ? null : now,
          pausedDueAt: held ? now : null,
          createdAt: now,
          updatedAt: now,
        };
        insertDelivery(delivery);
        queued.push(delivery);
      }
      return queued;
    },

    get(eventId: string): EventRecord | undefined {
      return db
        .select()
        .from(events)
        .where(and(mine, eq(events.id, eventId)))
        .get();
    },

    /** Calls `listener` for every committed event; returns the unsubscribe function. */
    subscribe(listener: EventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return service;
}

export type Events = ReturnType<typeof createEvents>;
