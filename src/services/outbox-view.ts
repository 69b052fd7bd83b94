/**
 * The control plane's view of the outbox: events newest first with the state of their
 * deliveries, and one event in full with its body and every attempt. Read-only; the webhook
 * dispatcher owns the rows.
 */
import { and, asc, desc, eq, inArray, lt, or, type SQL } from 'drizzle-orm';
import { iso } from '../domain/instant.js';
import type { Core } from './core.js';
import { fail } from '../domain/errors.js';
import { attempts, deliveries, events } from '../store/schema.js';
import type { AttemptView, DeliverySummary, EventDetail, EventListQuery, EventSummary } from '../wire/outbox.js';

export type { AttemptView, DeliverySummary, EventDetail, EventSummary };

type DeliveryRow = typeof deliveries.$inferSelect;

export const deliverySummary = (d: DeliveryRow): DeliverySummary => ({
  id: d.id,
  webhookId: d.webhookId,
  callbackUrl: d.callbackUrl,
  status: d.status,
  attempts: d.attempts,
  ...(d.status === 'pending' && d.nextAttemptAt != null ? { nextAttemptAt: iso(d.nextAttemptAt) } : {}),
  ...(d.status === 'pending' && d.nextAttemptAt == null ? { paused: true as const } : {}),
});

type AttemptRow = typeof attempts.$inferSelect;

const attemptView = (a: AttemptRow): AttemptView => ({
  attempt: a.attempt,
  at: iso(a.at),
  ...(a.statusCode != null ? { statusCode: a.statusCode } : {}),
  ...(a.error != null ? { error: a.error } : {}),
  durationMs: a.durationMs,
  ...(a.fault != null ? { fault: a.fault } : {}),
  ...(a.forgery != null ? { forgery: a.forgery } : {}),
  ...(a.responseType != null || a.responseBody != null
    ? { response: { ...(a.responseType != null ? { contentType: a.responseType } : {}), ...(a.responseBody != null ? { body: a.responseBody } : {}) } }
    : {}),
  ...(a.processed != null ? { processed: a.processed } : {}),
});

export function createSandboxEvents({ store, programme }: Core) {
  const { db } = store;
  const mine = eq(events.programmeId, programme);

  const deliveriesOf = (eventIds: string[]) =>
    eventIds.length === 0
      ? []
      : db
          .select()
          .from(deliveries)
          .where(and(eq(deliveries.programmeId, programme), inArray(deliveries.eventId, eventIds)))
          .orderBy(asc(deliveries.createdAt), asc(deliveries.id))
          .all();

  return {
    /** Newest first, at most `limit`. */
    list(filter: EventListQuery): EventSummary[] {
      const where: SQL[] = [mine];
      if (filter.type) where.push(eq(events.type, filter.type));
      if (filter.entityId) where.push(eq(events.entityId, filter.entityId));
      if (filter.before) {
        const cursor = db
          .select({ createdAt: events.createdAt, seq: events.seq })
          .from(events)
          .where(and(mine, eq(events.id, filter.before)))
          .get();
        if (!cursor) fail('event_not_found', `no event ${filter.before} (used as "before")`);
        where.push(or(lt(events.createdAt, cursor.createdAt), and(eq(events.createdAt, cursor.createdAt), lt(events.seq, cursor.seq)))!);
      }
      const rows = db
        .select({ id: events.id, type: events.type, entityId: events.entityId, createdAt: events.createdAt, body: events.body })
        .from(events)
        .where(and(...where))
        .orderBy(desc(events.createdAt), desc(events.seq))
        .limit(filter.limit)
        .all();
      const byEvent = Map.groupBy(deliveriesOf(rows.map((r) => r.id)), (d) => d.eventId);
      return rows.map((r) => ({
        ...r,
        createdAt: iso(r.createdAt),
        body: JSON.parse(r.body) as unknown,
        deliveries: (byEvent.get(r.id) ?? []).map(deliverySummary),
      }));
    },

    get(eventId: string): EventDetail {
      const event = db
        .select()
        .from(events)
        .where(and(mine, eq(events.id, eventId)))
        .get();
      if (!event) fail('event_not_found', `no event ${eventId}`);
      const rows = deliveriesOf([eventId]);
      const tries =
        rows.length === 0
          ? []
          : db
              .select()
              .from(attempts)
              .where(
                and(
                  eq(attempts.programmeId, programme),
                  inArray(
                    attempts.deliveryId,
                    rows.map((d) => d.id),
                  ),
                ),
              )
              .orderBy(asc(attempts.attempt))
              .all();
      const byDelivery = Map.groupBy(tries, (a) => a.deliveryId);
      return {
        id: event.id,
        type: event.type,
        entityId: event.entityId,
        createdAt: iso(event.createdAt),
        body: JSON.parse(event.body) as unknown,
        deliveries: rows.map((d) => ({
          ...deliverySummary(d),
          history: (byDelivery.get(d.id) ?? []).map(attemptView),
        })),
      };
    },
  };
}

export type SandboxEvents = ReturnType<typeof createSandboxEvents>;
