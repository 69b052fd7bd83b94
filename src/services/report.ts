/**
 * What the go-live report (docs/go-live.md: Before you go live) reads from the database for one
 * programme — every delivery attempt with its event, the statuses each resource type's events
 * have shown, and the directions and fee types of its transactions' — and what it keeps of a programme deleted since the sandbox started, so that a test
 * run whose files each made and deleted a programme still gets its report (docs/go-live.md: A
 * report over a whole test run). The request journal is in memory; the report itself is
 * domain/report/.
 */
import { and, eq, sql } from 'drizzle-orm';
import { resourceOf, type ResourceType } from '../domain/outbox.js';
import { ENDED_KEPT, type ProgrammeRecords, type ReportAttempt } from '../domain/report/index.js';
import { attempts, deliveries, events } from '../store/schema.js';
import type { Store } from '../store/store.js';

export interface StoredRecords {
  attempts: ReportAttempt[];
  statesReached: Partial<Record<ResourceType, string[]>>;
  money: { directions: string[]; feeTypes: string[] };
}

/** A programme's attempts and the states its resources reached, read from the database. */
export function storedRecords(store: Store, programme: string): StoredRecords {
  const { db } = store;
  const rows = db
    .select({
      deliveryId: attempts.deliveryId,
      eventId: deliveries.eventId,
      eventType: events.type,
      attempt: attempts.attempt,
      statusCode: attempts.statusCode,
      error: attempts.error,
      durationMs: attempts.durationMs,
      fault: attempts.fault,
      forgery: attempts.forgery,
      processed: attempts.processed,
    })
    .from(attempts)
    .innerJoin(deliveries, and(eq(deliveries.programmeId, attempts.programmeId), eq(deliveries.id, attempts.deliveryId)))
    .innerJoin(events, and(eq(events.programmeId, deliveries.programmeId), eq(events.id, deliveries.eventId)))
    .where(eq(attempts.programmeId, programme))
    .orderBy(attempts.at, attempts.attempt)
    .all();
  const states = db
    .selectDistinct({ type: events.type, status: sql<string | null>`json_extract(${events.body}, '$.status')` })
    .from(events)
    .where(eq(events.programmeId, programme))
    .all();
  const statesReached: Partial<Record<ResourceType, string[]>> = {};
  for (const { type, status } of states) {
    if (status === null) continue;
    const resource = resourceOf(type);
    if (resource) (statesReached[resource] ??= []).push(status);
  }
  const transactionEvents = db
    .selectDistinct({
      direction: sql<string | null>`json_extract(${events.body}, '$.direction')`,
      fees: sql<string | null>`json_extract(${events.body}, '$.fees')`,
    })
    .from(events)
    .where(and(eq(events.programmeId, programme), eq(events.type, 'transaction.updated')))
    .all();
  const directions = new Set<string>();
  const feeTypes = new Set<string>();
  for (const { direction, fees } of transactionEvents) {
    if (direction !== null) directions.add(direction);
    for (const fee of fees === null ? [] : (JSON.parse(fees) as { type: string }[])) feeTypes.add(fee.type);
  }
  return { attempts: rows, statesReached, money: { directions: [...directions], feeTypes: [...feeTypes] } };
}

/** A deleted programme's records, and when the programme was made (epoch ms). */
export interface EndedProgramme {
  records: ProgrammeRecords;
  createdAt: number;
}

/** The records of programmes deleted since the sandbox started, the newest ENDED_KEPT, in memory. */
export function createEndedRecords(limit = ENDED_KEPT) {
  const kept = new Map<string, EndedProgramme>();
  return {
    keep(records: ProgrammeRecords, createdAt: number): void {
      // Nothing to report of a programme that saw nothing.
      if (records.requests.length === 0 && records.attempts.length === 0) return;
      kept.delete(records.programme);
      kept.set(records.programme, { records, createdAt });
      if (kept.size > limit) kept.delete(kept.keys().next().value!);
    },
    find: (id: string): ProgrammeRecords | undefined => kept.get(id)?.records,
    /** Oldest deleted first. */
    list: (): EndedProgramme[] => [...kept.values()],
  };
}

export type EndedRecords = ReturnType<typeof createEndedRecords>;
