/**
 * The dispatcher's rows: deliveries are the queue (status `pending`, `nextAttemptAt`; null while
 * paused), attempts their history. Every statement is prepared once, since they run for every
 * attempt. `record` stores an attempt (and its duplicate) with the delivery's next state in one
 * transaction (`recordAll`, a batch of them in one); `hold` holds a delivery back without an attempt (docs/webhooks.md: Webhooks → The delivery lab).
 */
import { and, eq, gt, lt, min, sql, type SQLWrapper } from 'drizzle-orm';
import type { Clock } from '../kernel/clock.js';
import { idsOf, type Random } from '../kernel/ids.js';
import type { Tracing } from '../kernel/tracing.js';
import type { Log } from '../kernel/log.js';
import type { WebhookType } from '../domain/outbox.js';
import type { DeliveryHold } from '../domain/webhook-faults.js';
import { holdAfter, type FaultSource } from '../domain/webhook-attempts.js';
import { names, once, rowsInserter, selectList, sqlLiteral } from '../store/prepared.js';
import { attempts, deliveries, events } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { nextAttemptAt } from './retry-policy.js';
import { isSuccess, type AttemptListener, type AttemptReport, type Due, type Outcome, type Recorded, type Written } from './attempt-shapes.js';

/** What the deliveries of one programme are read and written with: a part of its services' core (services/core.ts), which is passed whole. */
export interface DeliveryCore {
  programme: string;
  store: Store;
  clock: Clock;
  random: Random;
  log: Log;
  /** Tracing, when it is on: each attempt is a span (attempt-span.ts). */
  tracing?: Tracing | undefined;
}

/**
 * What letting held deliveries go writes: due `now`, or, while their subscription is paused (no
 * next attempt), due `now` once it resumes; `hold` is what their next attempt records.
 */
export const released = (hold: DeliveryHold, now: SQLWrapper | number) => ({
  hold,
  nextAttemptAt: sql`CASE WHEN ${deliveries.nextAttemptAt} IS NULL THEN NULL ELSE ${now} END`,
  pausedDueAt: sql`CASE WHEN ${deliveries.nextAttemptAt} IS NULL THEN ${now} ELSE ${deliveries.pausedDueAt} END`,
  updatedAt: sql`${now}`,
});

/** A delivery as it stands when its attempt is recorded. */
interface Current {
  id: string;
  status: AttemptReport['status'];
  firstAttemptAt: number | null;
  callbackUrl: string;
}

export function createDeliveryRows(core: DeliveryCore, lab: FaultSource, onAttempt: AttemptListener, listened: () => boolean = () => true) {
  const { store, clock, random, log, programme } = core;
  const { db, sqlite } = store;
  const unseededIds = idsOf(random);
  const p = sql.placeholder;
  const mineDelivery = eq(deliveries.programmeId, programme);
  const eventOf = and(eq(events.programmeId, deliveries.programmeId), eq(events.id, deliveries.eventId));

  /*
   * The statements every attempt runs are SQLite's own, prepared on first use: through drizzle each
   * run would also map its placeholders and its rows, which costs more than SQLite's work here. The
   * programme is written into their text (sqlLiteral), or those with ORDER BY or min() would be
   * planned again on every run.
   */
  const d = names(deliveries, 'd');
  const e = names(events, 'e');
  const mine = `${d.programmeId} = ${sqlLiteral(programme)}`;
  const pending = `${d.status} = ${sqlLiteral('pending')}`;
  const dueSelect =
    `SELECT ${selectList(d, ['id', 'eventId', 'webhookId', 'callbackUrl', 'attempts', 'nextAttemptAt', 'hold'])}, ${selectList(e, ['body', 'type', 'entityId', 'seq', 'traceParent'])} ` +
    `FROM ${d.table} JOIN ${e.table} ON ${e.programmeId} = ${d.programmeId} AND ${e.id} = ${d.eventId}`;
  // Walks deliveries_due in order without a LIMIT (a bound one would be planned anew each run): `due` stops reading.
  // The ids in flight, and the subscriptions holding their share of the attempts in flight
  // (send-pool.ts), come as JSON array parameters: a list of varying length cannot be prepared.
  const dueQuery = once(() =>
    sqlite.prepare<[number, string, string], Due>(
      `${dueSelect} WHERE ${mine} AND ${pending} AND ${d.nextAttemptAt} <= ? AND ${d.id} NOT IN (SELECT value FROM json_each(?)) AND ${d.webhookId} NOT IN (SELECT value FROM json_each(?)) ORDER BY ${d.nextAttemptAt}, d.rowid`,
    ),
  );
  // A delivery followed through its retries: its event is the one already read, so one table is
  // enough — and with no join, SQLite has no join order to plan again for each bound id.
  const stillDueQuery = once(() =>
    sqlite.prepare<[string, number], Pick<Due, 'callbackUrl' | 'attempts' | 'nextAttemptAt' | 'hold'>>(
      `SELECT ${selectList(d, ['callbackUrl', 'attempts', 'nextAttemptAt', 'hold'])} FROM ${d.table} WHERE ${mine} AND ${d.id} = ? AND ${pending} AND ${d.nextAttemptAt} <= ?`,
    ),
  );
  const nextDueQuery = once(() => sqlite.prepare<[], number | null>(`SELECT min(${d.nextAttemptAt}) FROM ${d.table} WHERE ${mine} AND ${pending}`).pluck());
  // The deliveries of a batch of attempts as they stand now, read at once (their ids a JSON array).
  const currentQuery = once(() =>
    sqlite.prepare<[string], Current>(
      `SELECT ${selectList(d, ['id', 'status', 'firstAttemptAt', 'callbackUrl'])} FROM ${d.table} WHERE ${mine} AND ${d.id} IN (SELECT value FROM json_each(?))`,
    ),
  );
  const insertAttempts = rowsInserter(store, attempts);
  const u = names(deliveries);
  const updated = [u.attempts, u.firstAttemptAt, u.nextAttemptAt, u.pausedDueAt, u.hold, u.status, u.updatedAt];
  const updateDelivery = once(() =>
    sqlite.prepare<[number, number, number | null, number | null, DeliveryHold | null, string, number, string]>(
      `UPDATE ${u.table} SET ${updated.map((name) => `${name} = ?`).join(', ')} WHERE ${u.programmeId} = ${sqlLiteral(programme)} AND ${u.id} = ?`,
    ),
  );
  const byId = and(mineDelivery, eq(deliveries.id, p('id')));

  // The delivery lab's statements: they run only when faults are in force or a delivery was held.
  const holdDelivery = db
    .update(deliveries)
    .set({ hold: sql`${p('hold')}`, nextAttemptAt: sql`${p('until')}`, updatedAt: sql`${p('now')}` })
    .where(byId)
    .prepare();
  const sameEntity = (seq: 'earlier' | 'later') =>
    and(
      mineDelivery,
      eq(deliveries.webhookId, p('webhookId')),
      eq(deliveries.status, 'pending'),
      eq(events.entityId, p('entityId')),
      seq === 'earlier' ? and(lt(events.seq, p('seq')), eq(deliveries.hold, 'holding')) : gt(events.seq, p('seq')),
    );
  const earlierHeldQuery = db
    .select({ one: sql<number>`1` })
    .from(deliveries)
    .innerJoin(events, eventOf)
    .where(sameEntity('earlier'))
    .limit(1)
    .prepare();
  const laterQuery = db
    .select({ n: sql<number>`count(*)`, due: min(deliveries.nextAttemptAt) })
    .from(deliveries)
    .innerJoin(events, eventOf)
    .where(sameEntity('later'))
    .prepare();
  // A delivered event releases the earlier events for its entity held back behind it; a paused one stays paused.
  const releaseHeld = db
    .update(deliveries)
    .set(released('reordered', p('now')))
    .where(
      and(
        mineDelivery,
        eq(deliveries.webhookId, p('webhookId')),
        eq(deliveries.status, 'pending'),
        eq(deliveries.hold, 'holding'),
        sql`${deliveries.eventId} IN (SELECT ${events.id} FROM ${events} WHERE ${events.programmeId} = ${programme} AND ${events.entityId} = ${p('entityId')} AND ${events.seq} < ${p('seq')})`,
      ),
    )
    .prepare();

  return {
    /** Due deliveries, oldest due first, at most `limit`, leaving out those in flight and those of the subscriptions `waiting`. */
    due(now: number, limit: number, inFlight: Iterable<string>, waiting: readonly string[] = []): Due[] {
      const found: Due[] = [];
      if (limit <= 0) return found;
      for (const due of dueQuery().iterate(now, JSON.stringify([...inFlight]), JSON.stringify(waiting))) {
        // Leaving the loop early resets the statement: the rows after these are never read.
        if (found.push(due) >= limit) break;
      }
      return found;
    },

    /**
     * Of the deliveries a batch's recording left pending (`recordAll`), those due by `until`. Nothing
     * else has run since (no turn of the event loop), so they stand as written — unless the delivery
     * lab is in force, which may have let some go when another was delivered: then they are read again.
     */
    stillDue(pending: readonly Due[], until: number): Due[] {
      if (!lab.active) return pending.filter((due) => due.nextAttemptAt !== null && due.nextAttemptAt <= until);
      return pending.flatMap((due) => {
        const now = stillDueQuery().get(due.id, until);
        return now ? [{ ...due, ...now }] : [];
      });
    },

    /** The earliest due time of a pending delivery; in-flight ones count (time travel waits for them). */
    nextDue: (): number | undefined => nextDueQuery().get() ?? undefined,

    /** Holds the delivery back until `until`, without an attempt; its next attempt records the hold. */
    hold(due: Due, hold: DeliveryHold, until: number): void {
      holdDelivery.run({ id: due.id, hold, until, now: clock.now() });
    },

    /** Whether an earlier event for the delivery's entity is held back for its subscription. */
    overtakes: (due: Due): boolean => earlierHeldQuery.get({ webhookId: due.webhookId, entityId: due.entityId, seq: due.seq }) !== undefined,

    /** A later event's delivery for the same entity and subscription still pending: its due time (null while paused), else undefined. */
    laterPending(due: Due): number | null | undefined {
      const row = laterQuery.get({ webhookId: due.webhookId, entityId: due.entityId, seq: due.seq });
      return row && row.n > 0 ? (row.due ?? null) : undefined;
    },

    /**
     * Stores the attempt (and the duplicate that followed it) and the delivery's next state, then
     * tells the listeners; returns false when nothing was stored.
     */
    record(due: Due, at: number, outcomes: Outcome[]): boolean {
      return recordAll([{ due, at, outcomes }]).stored > 0;
    },

    /**
     * Stores a batch of attempts (time travel's) as `record` does, all in one transaction; returns how
     * many attempts were stored, and the deliveries as written that stay pending with a next attempt.
     */
    recordAll,
  };

  /**
   * What `record` writes for one attempt (and its duplicate), inside the caller's transaction, its
   * delivery as it stands `current`; returns how many attempts it stored. Their rows are added to
   * `rows`, their reports to `reports` (when anyone listens), the delivery as written to `pending` while it stays so.
   */
  function write(
    { due, at, outcomes }: Recorded,
    current: Current | undefined,
    rows: (typeof attempts.$inferInsert)[],
    reports: AttemptReport[],
    pending: Due[],
  ): number {
    const first = due.attempts + 1;
    // Wiped by a reset while the attempt was in flight.
    if (!current) return 0;
    const now = Math.max(at, clock.now());
    const firstAttemptAt = current.firstAttemptAt ?? at;
    // Attempts end in whatever order their receivers answer: each draws from a stream of its own, so that a seeded programme's
    // jitter and ids do not depend on that order. Unseeded, a fork draws from node:crypto as the programme's stream does: that one serves.
    const draws = random.seeded ? random.fork(`attempt ${due.id} ${first}`) : random;
    const attemptIds = random.seeded ? idsOf(draws) : unseededIds;
    let status = current.status;
    let next: number | undefined;
    let pausedDueAt: number | undefined;
    // The first outcome decides; a duplicate's own outcome changes nothing.
    if (isSuccess(outcomes[0]!)) status = 'delivered';
    // A delivery stopped meanwhile (its webhook was deleted, or it was exhausted) stays stopped.
    else if (status === 'pending') {
      next = nextAttemptAt({ failures: first, firstAttemptAt, failedAt: now, random: draws.float() });
      if (next === undefined) status = 'discarded';
      else if (lab.paused(due.webhookId)) [pausedDueAt, next] = [next, undefined];
    }
    const reported = listened();
    outcomes.forEach((outcome, i) => {
      const { statusCode, error, durationMs, fault, forgery, processed, response } = outcome;
      rows.push({
        programmeId: programme,
        id: attemptIds.uuid(),
        deliveryId: due.id,
        attempt: first + i,
        at,
        statusCode: statusCode ?? null,
        error: error ?? null,
        durationMs,
        fault: fault ?? null,
        forgery: forgery ?? null,
        processed: processed ?? null,
        responseType: response?.contentType ?? null,
        responseBody: response?.body ?? null,
      });
      if (!reported) return;
      reports.push({
        eventId: due.eventId,
        type: due.type as WebhookType,
        entityId: due.entityId,
        deliveryId: due.id,
        webhookId: due.webhookId,
        callbackUrl: due.callbackUrl,
        attempt: first + i,
        at,
        ...outcome,
        status,
        ...(next !== undefined ? { nextAttemptAt: next } : {}),
        ...(pausedDueAt !== undefined ? { paused: true as const } : {}),
      });
    });
    const hold = holdAfter(outcomes[0]!.fault, due.hold);
    const attempts = first + outcomes.length - 1;
    updateDelivery().run(attempts, firstAttemptAt, next ?? null, pausedDueAt ?? null, hold, status, now, due.id);
    if (status === 'delivered' && lab.active) releaseHeld.run({ webhookId: due.webhookId, entityId: due.entityId, seq: due.seq, now });
    if (status === 'pending' && next !== undefined) pending.push({ ...due, callbackUrl: current.callbackUrl, attempts, nextAttemptAt: next, hold });
    return outcomes.length;
  }

  function recordAll(batch: readonly Recorded[]): Written {
    const reports: AttemptReport[] = [];
    const pending: Due[] = [];
    let stored: number;
    try {
      stored = store.transaction(() => {
        const current = new Map(
          currentQuery()
            .all(JSON.stringify(batch.map(({ due }) => due.id)))
            .map((row) => [row.id, row]),
        );
        const rows: (typeof attempts.$inferInsert)[] = [];
        const written = batch.reduce((sum, one) => sum + write(one, current.get(one.due.id), rows, reports, pending), 0);
        insertAttempts(rows);
        return written;
      });
    } catch (error) {
      log.error('webhook attempt could not be recorded', { deliveryIds: batch.map(({ due }) => due.id), error: String(error) });
      return { stored: 0, pending: [] };
    }
    for (const report of reports) onAttempt(report);
    return { stored, pending };
  }
}
