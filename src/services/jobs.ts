/**
 * Jobs: rows with a due time (account deployment, auto-capture, settlement, card expiry, hold
 * release). A job runs in one transaction together with its own deletion, so it runs exactly
 * once even across a crash. Handlers are synchronous and take the due time as `now`. With tracing
 * on, a job keeps the trace of what scheduled it and runs in a span of that trace (docs/tracing.md: Tracing).
 */
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Core } from './core.js';
import { names, once, rowInserter, sqlLiteral } from '../store/prepared.js';
import { jobs } from '../store/schema.js';
import { MAX_INSTANT } from '../domain/instant.js';
import type { DueSource } from '../kernel/scheduler.js';

export type JobHandler = (subjectId: string, now: number) => void;

export function createJobs(core: Core, onScheduled: () => void) {
  const { store, ids, log, programme, tracing } = core;
  const { db } = store;
  const mine = eq(jobs.programmeId, programme);
  const handlers = new Map<string, JobHandler>();
  // The scheduler asks on every tick, and a tick follows every committed event: SQLite's own
  // statement, the programme written into its text, or min() would be planned again on every run (sqlLiteral).
  const j = names(jobs);
  const nextDueQuery = once(() =>
    store.sqlite.prepare<[], number | null>(`SELECT min(${j.dueAt}) FROM ${j.table} WHERE ${j.programmeId} = ${sqlLiteral(programme)}`).pluck(),
  );
  const insert = rowInserter(store, jobs);
  const cancelQuery = once(() =>
    db
      .delete(jobs)
      .where(and(mine, eq(jobs.kind, sql.placeholder('kind')), eq(jobs.subjectId, sql.placeholder('subjectId'))))
      .prepare(),
  );
  const dueQuery = once(() =>
    db
      .select()
      .from(jobs)
      .where(and(mine, lte(jobs.dueAt, sql.placeholder('now'))))
      .orderBy(asc(jobs.dueAt), asc(jobs.createdAt))
      .prepare(),
  );
  const deleteQuery = once(() =>
    db
      .delete(jobs)
      .where(and(mine, eq(jobs.id, sql.placeholder('id'))))
      .prepare(),
  );

  const service = {
    define(kind: string, handler: JobHandler): void {
      handlers.set(kind, handler);
    },

    /**
     * Schedules `kind` for `subjectId` at `dueAt`, or at the last instant of the range of time when
     * it falls past it (docs/control-plane.md: The range of time); call inside the transaction that makes it due.
     */
    schedule(kind: string, subjectId: string, dueAt: number): void {
      insert({
        programmeId: programme,
        id: ids.uuid(),
        kind,
        subjectId,
        dueAt: Math.min(dueAt, MAX_INSTANT),
        traceParent: tracing?.current() ?? null,
        createdAt: core.clock.now(),
      });
      onScheduled();
    },

    cancel(kind: string, subjectId: string): void {
      cancelQuery().run({ kind, subjectId });
    },

    pending(subjectId?: string) {
      return db
        .select()
        .from(jobs)
        .where(subjectId ? and(mine, eq(jobs.subjectId, subjectId)) : mine)
        .orderBy(asc(jobs.dueAt))
        .all();
    },

    source: {
      name: 'jobs',
      nextDue: () => nextDueQuery().get() ?? undefined,
      runDue(now: number): number {
        const due = dueQuery().all({ now });
        let ran = 0;
        for (const job of due) {
          const handler = handlers.get(job.kind);
          try {
            const run = () =>
              store.transaction(() => {
                const deleted = deleteQuery().run({ id: job.id }).changes;
                if (deleted === 1 && handler) handler(job.subjectId, job.dueAt);
              });
            if (tracing)
              tracing.within(
                `job ${job.kind}`,
                job.traceParent ?? undefined,
                { 'card_sandbox.job.kind': job.kind, 'card_sandbox.job.subject': job.subjectId, 'card_sandbox.programme': programme },
                run,
              );
            else run();
            ran++;
          } catch (error) {
            log.error(`job ${job.kind} for ${job.subjectId} failed`, { error: String(error) });
            deleteQuery().run({ id: job.id });
          }
          if (!handler) log.warn(`job ${job.kind} has no handler; dropped`);
        }
        return ran;
      },
    } satisfies DueSource,
  };
  return service;
}

export type Jobs = ReturnType<typeof createJobs>;
