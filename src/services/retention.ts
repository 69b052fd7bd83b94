/**
 * Retention: what the database would otherwise keep forever is bounded. The outbox keeps the
 * newest `--event-retention` events with their deliveries and attempts; older events go, except
 * those with a delivery still pending, which stay until it is delivered or discarded. Idempotency
 * keys whose hour of sandbox time has passed are dropped too. Pruning runs after each commit that
 * wrote events, and on the server's timer for quiet periods.
 */
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Core } from './core.js';
import { deliveries, events, idempotencyKeys } from '../store/schema.js';
import type { Events } from './outbox.js';
import { names, sqlLiteral } from '../store/prepared.js';

/** Expired idempotency keys are swept at most this often (sandbox time): the sweep reads the whole table. */
export const KEY_SWEEP_INTERVAL_MS = 60_000;

export interface Pruned {
  events: number;
  idempotencyKeys: number;
}

export function createRetention(core: Core, { events: outbox }: { events: Events }) {
  const { store, clock, config, log, programme } = core;
  const { db } = store;
  let lastSweep = Number.NEGATIVE_INFINITY;

  // Newest by sequence number, which follows the order events were written. Events are only ever
  // deleted oldest first (here) or all at once (reset), so the newest numbers have no gaps and the
  // N newest are those above max(seq) - N: found from the events_seq index at once, whatever N is.
  // The first two run after every write, as SQLite's own statements: the programme is written into
  // their text, or SQLite would plan max() and the subquery again on every run (store/prepared.ts: sqlLiteral).
  const e = names(events);
  const d = names(deliveries, 'd');
  const programmeText = sqlLiteral(programme);
  const newestQuery = store.sqlite.prepare(`SELECT max(${e.seq}) FROM ${e.table} WHERE ${e.programmeId} = ${programmeText}`).pluck();
  // Their deliveries and attempts go with them (ON DELETE CASCADE). An event's pending delivery is
  // looked for by the event (deliveries_event): `+` keeps SQLite from walking every pending delivery
  // of the programme (deliveries_due) for each event past retention instead.
  const deleteOlder = store.sqlite.prepare<[number]>(
    `DELETE FROM ${e.table} WHERE ${e.programmeId} = ${programmeText} AND ${e.seq} <= ?
     AND NOT EXISTS (SELECT 1 FROM ${d.table} WHERE ${d.programmeId} = ${e.table}.${e.programmeId} AND ${d.eventId} = ${e.table}.${e.id} AND +${d.status} = 'pending')`,
  );
  const deleteExpiredKeys = db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.programmeId, programme), lte(idempotencyKeys.expiresAt, sql.placeholder('now')), eq(idempotencyKeys.state, 'done')))
    .prepare();

  const service = {
    /** Deletes what is past retention now; returns how many events and idempotency keys went. */
    prune(): Pruned {
      // Each delete stands on its own: no transaction needed around them.
      const now = clock.now();
      const cutoff = ((newestQuery.get() as number | null) ?? 0) - config.eventRetention;
      const pruned = { events: cutoff > 0 ? deleteOlder.run(cutoff).changes : 0, idempotencyKeys: 0 };
      if (now - lastSweep >= KEY_SWEEP_INTERVAL_MS) {
        pruned.idempotencyKeys = deleteExpiredKeys.run({ now }).changes;
        lastSweep = now;
      }
      return pruned;
    },
  };

  // One prune per burst: listeners hear each event of a commit in turn, within one microtask.
  let queued = false;
  outbox.subscribe(() => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      try {
        service.prune();
      } catch (error) {
        log.error('retention: pruning failed', { error: String(error) });
      }
    });
  });
  service.prune();
  return service;
}

export type Retention = ReturnType<typeof createRetention>;
