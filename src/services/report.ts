/**
 * What the go-live report (docs/go-live.md: Before you go live) reads from the database for one programme:
 * every delivery attempt with its event's type, and the statuses each resource type's events have
 * shown. The request journal is in memory; the report itself is domain/report.ts.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Core } from './core.js';
import { resourceOf, type ResourceType } from '../domain/outbox.js';
import type { ReportAttempt } from '../domain/report.js';
import { attempts, deliveries, events } from '../store/schema.js';

export function createReport({ store, programme }: Core) {
  const { db } = store;
  return {
    records(): { attempts: ReportAttempt[]; statesReached: Partial<Record<ResourceType, string[]>> } {
      const rows = db
        .select({
          deliveryId: attempts.deliveryId,
          eventType: events.type,
          attempt: attempts.attempt,
          statusCode: attempts.statusCode,
          error: attempts.error,
          durationMs: attempts.durationMs,
          fault: attempts.fault,
        })
        .from(attempts)
        .innerJoin(deliveries, and(eq(deliveries.programmeId, attempts.programmeId), eq(deliveries.id, attempts.deliveryId)))
        .innerJoin(events, and(eq(events.programmeId, deliveries.programmeId), eq(events.id, deliveries.eventId)))
        .where(eq(attempts.programmeId, programme))
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
      return { attempts: rows, statesReached };
    },
  };
}
