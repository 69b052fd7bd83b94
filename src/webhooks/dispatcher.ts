/**
 * The dispatcher: the scheduler's source of webhook attempts. Deliveries are rows (status
 * `pending`, `nextAttemptAt`); it sends those that are due, at most MAX_IN_FLIGHT at a time, and
 * records each attempt and the delivery's next state in one transaction. In real time `pump`
 * starts due attempts without waiting for them; time travel calls `runDue`, which waits.
 *
 * Restarts: the rows are the queue, so a restart resumes every pending delivery and never resends
 * a delivered one. An attempt in flight when the process dies was not recorded, so it is sent
 * again (with the same attempt number); receivers deduplicate by `Sandbox-Event-Id`.
 */
import { setMaxListeners } from 'node:events';
import { and, asc, eq, lte, min, sql } from 'drizzle-orm';
import type { Core } from '../core.js';
import { idsOf } from '../ids.js';
import type { DueSource } from '../scheduler.js';
import { attempts, deliveries, events } from '../store/schema.js';
import { nextAttemptAt } from './retry-policy.js';
import { sendAttempt, type AttemptOutcome, type SendPool, type WebhookSigner } from './send.js';

export const MAX_IN_FLIGHT = 64;

export interface AttemptReport {
  eventId: string;
  deliveryId: string;
  webhookId: string;
  callbackUrl: string;
  attempt: number;
  /** Sandbox time the attempt started, epoch ms. */
  at: number;
  statusCode?: number;
  error?: string;
  durationMs: number;
  /** The delivery's state after the attempt. */
  status: 'pending' | 'delivered' | 'discarded';
  /** When the next attempt is due (status `pending` only). */
  nextAttemptAt?: number;
}

export type AttemptListener = (report: AttemptReport) => void;

interface Due {
  id: string;
  eventId: string;
  webhookId: string;
  callbackUrl: string;
  attempts: number;
  nextAttemptAt: number | null;
  body: string;
}

export interface DispatcherOptions {
  /** The programme's signing key, made or read the first time an attempt needs it. */
  signer: () => WebhookSigner;
  /** The agents and the budget of attempts in flight, shared by every programme's dispatcher. */
  pool: SendPool;
  /** Asks the scheduler for a tick soon: called when an attempt finishes, to keep a burst draining. */
  kick: () => void;
  onAttempt: AttemptListener;
}

const isSuccess = (outcome: AttemptOutcome) => outcome.error === undefined && outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode < 300;

export function createDispatcher(core: Core, options: DispatcherOptions) {
  const { store, clock, random, log, programme } = core;
  const { db } = store;
  const { pool } = options;
  const inFlight = new Map<string, Promise<unknown>>();
  const shutdown = new AbortController();
  // Each attempt in flight listens for the shutdown; there are at most MAX_IN_FLIGHT of them.
  setMaxListeners(MAX_IN_FLIGHT, shutdown.signal);
  let stopped = false;

  // Prepared once: these run for every attempt, and building and compiling them each time would
  // cost more than the attempt's own bookkeeping.
  const p = sql.placeholder;
  const dueColumns = { id: deliveries.id, eventId: deliveries.eventId, webhookId: deliveries.webhookId, callbackUrl: deliveries.callbackUrl, attempts: deliveries.attempts, nextAttemptAt: deliveries.nextAttemptAt, body: events.body };
  const dueQuery = db
    .select(dueColumns)
    .from(deliveries)
    .innerJoin(events, and(eq(events.programmeId, deliveries.programmeId), eq(events.id, deliveries.eventId)))
    .where(
      and(
        eq(deliveries.programmeId, programme),
        eq(deliveries.status, 'pending'),
        lte(deliveries.nextAttemptAt, p('now')),
        // The ids in flight, as one JSON array parameter: a list of varying length cannot be prepared.
        sql`${deliveries.id} NOT IN (SELECT value FROM json_each(${p('inFlight')}))`,
      ),
    )
    .orderBy(asc(deliveries.nextAttemptAt), sql`${deliveries}.rowid`)
    .limit(p('limit'))
    .prepare();
  const dueByIdQuery = db
    .select(dueColumns)
    .from(deliveries)
    .innerJoin(events, and(eq(events.programmeId, deliveries.programmeId), eq(events.id, deliveries.eventId)))
    .where(and(eq(deliveries.programmeId, programme), eq(deliveries.id, p('id')), eq(deliveries.status, 'pending'), lte(deliveries.nextAttemptAt, p('until'))))
    .prepare();
  const nextDueQuery = db.select({ due: min(deliveries.nextAttemptAt) }).from(deliveries).where(and(eq(deliveries.programmeId, programme), eq(deliveries.status, 'pending'))).prepare();
  const byId = and(eq(deliveries.programmeId, programme), eq(deliveries.id, p('id')));
  const currentQuery = db.select({ status: deliveries.status, firstAttemptAt: deliveries.firstAttemptAt }).from(deliveries).where(byId).prepare();
  const insertAttempt = db
    .insert(attempts)
    .values({ programmeId: programme, id: p('id'), deliveryId: p('deliveryId'), attempt: p('attempt'), at: p('at'), statusCode: p('statusCode'), error: p('error'), durationMs: p('durationMs') })
    .prepare();
  const updateDelivery = db
    .update(deliveries)
    // update().set() takes placeholders only wrapped in sql``.
    .set({ attempts: sql`${p('attempts')}`, firstAttemptAt: sql`${p('firstAttemptAt')}`, nextAttemptAt: sql`${p('nextAttemptAt')}`, status: sql`${p('status')}`, updatedAt: sql`${p('updatedAt')}` })
    .where(byId)
    .prepare();

  /** Due deliveries, oldest due first, leaving out those in flight. */
  const dueRows = (now: number, limit: number): Due[] => dueQuery.all({ now, limit, inFlight: JSON.stringify([...inFlight.keys()]) });

  /** Starts the attempt; `at` is the sandbox time it is made at (its due time during time travel). */
  const send = (due: Due, at = clock.now()) => {
    pool.active++;
    const outcome = sendAttempt({
      callbackUrl: due.callbackUrl,
      body: Buffer.from(due.body, 'utf8'),
      eventId: due.eventId,
      attempt: due.attempts + 1,
      signer: options.signer(),
      created: Math.floor(clock.wall() / 1000),
      agents: pool.agents,
      signal: shutdown.signal,
    })
      .catch((error: unknown): AttemptOutcome => ({ error: `could not send: ${(error as Error).message}`, durationMs: 0 }))
      .finally(() => pool.active--);
    return { at, outcome };
  };

  /** Stores the attempt and the delivery's next state; returns false when nothing was stored. */
  const record = (due: Due, at: number, outcome: AttemptOutcome): boolean => {
    const attempt = due.attempts + 1;
    let report: AttemptReport | undefined;
    try {
      store.transaction(() => {
        const current = currentQuery.get({ id: due.id });
        // Wiped by a reset while the attempt was in flight.
        if (!current) return;
        const now = Math.max(at, clock.now());
        const firstAttemptAt = current.firstAttemptAt ?? at;
        // Attempts end in whatever order their receivers answer: each draws from a stream of its
        // own, so that a seeded programme's jitter and ids do not depend on that order.
        const draws = random.fork(`attempt ${due.id} ${attempt}`);
        let status = current.status;
        let next: number | undefined;
        if (isSuccess(outcome)) status = 'delivered';
        // A delivery stopped meanwhile (its webhook was deleted) stays stopped.
        else if (status === 'pending') {
          next = nextAttemptAt({ failures: attempt, firstAttemptAt, failedAt: now, random: draws.float() });
          if (next === undefined) status = 'discarded';
        }
        insertAttempt.run({ id: idsOf(draws).uuid(), deliveryId: due.id, attempt, at, statusCode: outcome.statusCode ?? null, error: outcome.error ?? null, durationMs: outcome.durationMs });
        updateDelivery.run({ id: due.id, attempts: attempt, firstAttemptAt, nextAttemptAt: next ?? null, status, updatedAt: now });
        report = { eventId: due.eventId, deliveryId: due.id, webhookId: due.webhookId, callbackUrl: due.callbackUrl, attempt, at, ...outcome, status, ...(next !== undefined ? { nextAttemptAt: next } : {}) };
      });
    } catch (error) {
      log.error('webhook attempt could not be recorded', { deliveryId: due.id, error: String(error) });
      return false;
    }
    if (!report) return false;
    options.onAttempt(report);
    return true;
  };

  /** Resolves when no attempt is in flight; returns how many were. */
  const idle = async (): Promise<number> => {
    let waited = 0;
    while (inFlight.size > 0) {
      const pending = [...inFlight.values()];
      waited += pending.length;
      await Promise.all(pending);
    }
    return waited;
  };

  const source = {
    name: 'webhooks',

    nextDue(): number | undefined {
      // In-flight deliveries count: time travel must wait for them before moving on.
      return nextDueQuery.get()?.due ?? undefined;
    },

    pump(now: number): void {
      if (stopped) return;
      const room = pool.max - pool.active;
      if (room <= 0) return;
      for (const due of dueRows(now, room)) {
        const { at, outcome } = send(due);
        const done = outcome
          .then((result) => record(due, at, result))
          .finally(() => {
            inFlight.delete(due.id);
            options.kick();
          });
        inFlight.set(due.id, done);
      }
    },

    /**
     * Time travel: lets attempts already in flight finish, then sends what is due up to `until`
     * (immediate retries included), each attempt made at its own due time, in batches of
     * MAX_IN_FLIGHT, recording each batch in due order so that the jitter drawn for each delivery
     * does not depend on which receiver answered first. The scheduler sets `until` short of any
     * other source's next due item, and an attempt depends on nothing but its delivery, so sending
     * a batch together changes no outcome; it keeps a day of jittered retries from going out one
     * round trip at a time. A batch's deliveries are followed through their retries in the window
     * before the next batch starts: their attempts then go out close together in real time, and
     * those made within the same wall-clock second share one signature (send.ts).
     */
    async runDue(now: number, until = now): Promise<number> {
      let ran = await idle();
      let followed: Due[] = [];
      for (;;) {
        // Shutting down: what is left stays pending for the next start.
        if (stopped) return ran;
        const retries = followed.flatMap((due) => dueByIdQuery.all({ id: due.id, until }));
        const batch = retries.length > 0 ? retries : dueRows(until, MAX_IN_FLIGHT);
        if (batch.length === 0) return ran;
        followed = batch;
        let recorded = 0;
        const run = (async () => {
          const started = batch.map((due) => send(due, Math.max(due.nextAttemptAt ?? now, now)));
          const outcomes = await Promise.all(started.map((s) => s.outcome));
          batch.forEach((due, i) => {
            if (record(due, started[i]!.at, outcomes[i]!)) recorded++;
          });
        })();
        // Visible to idle() and drain(), like attempts started by pump.
        for (const due of batch) inFlight.set(due.id, run);
        try {
          await run;
        } finally {
          for (const due of batch) inFlight.delete(due.id);
        }
        ran += recorded;
        // Nothing could be stored (the database is closing): stop rather than resend forever.
        if (recorded === 0) return ran;
      }
    },
  } satisfies DueSource;

  return {
    source,
    idle,
    get inFlight(): number {
      return inFlight.size;
    },
    stop(): void {
      stopped = true;
    },
    /**
     * Stops starting attempts and waits up to `graceMs` for those in flight, then cuts the rest
     * short and records them as failed; true when all finished by themselves.
     */
    async drain(graceMs: number): Promise<boolean> {
      stopped = true;
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        idle().then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (!finished) {
        // Cut the attempts still waiting on a receiver: each is recorded as failed (so retried on
        // the next start, on the usual schedule) before the database closes.
        shutdown.abort();
        await idle();
      }
      return finished;
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
