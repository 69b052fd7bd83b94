/**
 * The dispatcher: the scheduler's source of webhook attempts. Deliveries are rows (status
 * `pending`, `nextAttemptAt`); it sends those that are due, each attempt in a slot of the pool
 * every programme shares fairly (send-pool.ts), and records each attempt and the delivery's next state
 * in one transaction. In real time `pump` starts due attempts without waiting for them; time travel calls `runDue`, which waits. Before
 * each attempt the delivery lab may decide otherwise (docs/webhooks.md: Webhooks → The delivery lab): hold
 * it back, answer in the receiver's place, or send it twice — a pure decision (domain/webhook-faults.ts) taken
 * only when faults are in force or the delivery was held, so the loop stays this one loop.
 *
 * Restarts: the rows are the queue, so a restart resumes every pending delivery and never resends
 * a delivered one. An attempt in flight when the process dies was not recorded, so it is sent
 * again (with the same attempt number); receivers deduplicate by `Sandbox-Event-Id`.
 */
import { setMaxListeners } from 'node:events';
import type { Config } from '../config/index.js';
import type { DueSource } from '../kernel/scheduler.js';
import { createDeliveryRows, type DeliveryCore } from './delivery-rows.js';
import { isSuccess, type AttemptListener, type Due, type Outcome } from './attempt-shapes.js';
import { attemptDraw, decideAttempt, SEND, type FaultSource, type Plan } from '../domain/webhook-attempts.js';
import { CUT_SHORT, noResponse, sendAttempt, type WebhookSigner } from './send.js';
import type { SendPool } from './send-pool.js';
import { tracedAttempt } from './attempt-span.js';

export type { AttemptListener, AttemptReport } from './attempt-shapes.js';

export const MAX_IN_FLIGHT = 64;
const LANES = 2; // batches time travel has out at once (runDue)

export interface DispatcherOptions {
  /** The programme's signing key, made or read the first time an attempt needs it. */
  signer: () => WebhookSigner;
  /** The agents and the budget of attempts in flight, shared by every programme's dispatcher. */
  pool: SendPool;
  /** Asks the scheduler for a tick soon: called when an attempt finishes, to keep a burst draining. */
  kick: () => void;
  onAttempt: AttemptListener;
  /** Whether anyone listens to the attempts now: when not, no report is made of them. */
  listened?: () => boolean;
  /** The programme's delivery lab: faults and pauses (docs/webhooks.md: Webhooks → The delivery lab). */
  lab: FaultSource;
}

type Sending = Exclude<Plan, { action: 'hold' }>;
type Marks = Pick<Outcome, 'fault' | 'forgery'>;

/** The outcome, with the fault and forgery its attempt was sent with. */
const marked = (outcome: Outcome, { fault, forgery }: Marks): Outcome => Object.assign(outcome, fault && { fault }, forgery && { forgery });

export function createDispatcher(core: DeliveryCore & { config: Pick<Config, 'allowLinkLocalCallbacks' | 'webhookTimeoutMs'> }, options: DispatcherOptions) {
  const { clock, random, programme } = core;
  const { pool, lab } = options;
  const rows = createDeliveryRows(core, lab, options.onAttempt, options.listened);
  const inFlight = new Map<string, Promise<unknown>>();
  const cutter = () => {
    const controller = new AbortController();
    // Each attempt in flight listens to it; there are at most MAX_IN_FLIGHT of them.
    setMaxListeners(MAX_IN_FLIGHT, controller.signal);
    return controller;
  };
  // Cuts the attempts in flight short: at shutdown, or when their world is replaced (then a new one serves).
  let cut = cutter();
  // Bumped when the programme's world is replaced (a snapshot restored) or deleted: an attempt begun before records nothing.
  let world = 0;
  // Forged attempts decided so far: the place in the forge fault's rotation of kinds (domain/webhook-attempts.ts).
  let forged = 0;
  // Bumped when the attempts in flight are cut short: time travel under way stops sending.
  let cuts = 0;
  let stopped = false;
  const cutShort = () => {
    cuts++;
    cut.abort();
    cut = cutter();
  };

  /**
   * The delivery lab's decision for the attempt due now (domain/webhook-faults.ts). With no faults in
   * force and no hold on the delivery — the usual case — there is nothing to decide. A hold is
   * stored at once: the delivery is not sent now.
   */
  const plan = (due: Due, at: number): Plan => {
    if (due.hold === null && !lab.active) return SEND;
    const faults = lab.faultsFor(due.webhookId);
    const attempt = due.attempts + 1;
    const decided = decideAttempt(
      faults,
      { attempt, at, held: due.hold, overtakes: () => rows.overtakes(due), laterPending: () => rows.laterPending(due), forged },
      attemptDraw(faults, due.seq, attempt, () => random.float()),
    );
    if (decided.action === 'send' && decided.forgery) forged++;
    if (decided.action === 'hold') rows.hold(due, decided.hold, at + decided.forMs);
    else if (decided.action === 'answer' && decided.fault === 'injected-status' && decided.spendsFail) lab.spendFail(due.webhookId);
    return decided;
  };

  /**
   * One real attempt, in a slot of the shared pool: one taken already (`slot` 'taken', real time),
   * or one waited for — its subscription's share (a duplicate) or time travel's (send-pool.ts).
   * Its outcome carries the fault and forgery it was sent with (`marks`); a duplicate is signed anew.
   */
  const attemptOnce = async (
    due: Due,
    attempt: number,
    marks: Marks,
    slot: 'taken' | 'subscription' | 'travel',
    traceparent: string | undefined,
  ): Promise<Outcome> => {
    const signal = cut.signal;
    if (slot !== 'taken' && !(await pool.acquire(programme, due.webhookId, signal, slot === 'travel')))
      return marked({ error: CUT_SHORT, durationMs: 0 }, marks);
    return sendAttempt({
      callbackUrl: due.callbackUrl,
      body: (due.bytes ??= Buffer.from(due.body, 'utf8')),
      eventId: due.eventId,
      attempt,
      signer: options.signer(),
      created: Math.floor(clock.wall() / 1000),
      agents: pool.agents,
      signal,
      fresh: marks.fault === 'duplicate',
      forged: marks.forgery,
      allowLinkLocal: core.config.allowLinkLocalCallbacks,
      timeoutMs: core.config.webhookTimeoutMs,
      traceparent,
    })
      .catch((error: unknown): Outcome => ({ error: `could not send: ${(error as Error).message}`, durationMs: 0 }))
      .then((outcome) => (pool.give(programme, due.webhookId), marked(outcome, marks)));
  };

  /**
   * Carries out the plan: the answer the sandbox gives in the receiver's place, or the attempt —
   * and, when it succeeds and a duplicate is due, the same bytes again, freshly signed.
   */
  const perform = async (due: Due, decided: Sending, slot: 'taken' | 'travel', at: number): Promise<Outcome[]> => {
    const attempt = due.attempts + 1;
    if (decided.action === 'answer') {
      // Answered in the receiver's place: a slot taken for it goes back at once.
      if (slot === 'taken') pool.give(programme, due.webhookId);
      const answered: Outcome =
        decided.fault === 'injected-status'
          ? { statusCode: decided.statusCode, durationMs: 0, fault: decided.fault }
          : { error: noResponse(core.config.webhookTimeoutMs), durationMs: core.config.webhookTimeoutMs, fault: decided.fault };
      return [await tracedAttempt(core, due, attempt, at, async () => answered)];
    }
    const outcome = await tracedAttempt(core, due, attempt, at, (tp) => attemptOnce(due, attempt, decided, slot, tp));
    if (!decided.duplicate || !isSuccess(outcome)) return [outcome];
    const again = slot === 'taken' ? 'subscription' : 'travel';
    const twice = tracedAttempt(core, due, attempt + 1, at, (tp) => attemptOnce(due, attempt + 1, { fault: 'duplicate' }, again, tp));
    return [outcome, await twice];
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

    nextDue: rows.nextDue,

    pump(now: number): void {
      if (stopped) return;
      // The programme's share of the pool, less what it holds; subscriptions at their own share wait.
      const room = pool.room(programme);
      if (room <= 0) {
        if (rows.nextDue() !== undefined) pool.whenRoom(options.kick);
        return;
      }
      let held = false;
      for (const due of rows.due(now, room, inFlight.keys(), pool.full(programme))) {
        // A slot first, then the lab's decision: nothing is drawn for a delivery that waits.
        if (!pool.take(programme, due.webhookId, options.kick)) continue;
        const at = clock.now();
        const decided = plan(due, at);
        if (decided.action === 'hold') {
          pool.give(programme, due.webhookId);
          held = true;
          continue;
        }
        const begun = world;
        const done = perform(due, decided, 'taken', at)
          .then((outcomes) => begun === world && rows.record(due, at, outcomes))
          .finally(() => {
            inFlight.delete(due.id);
            options.kick();
          });
        inFlight.set(due.id, done);
      }
      // Held deliveries took places in this round: look again for what else is due.
      if (held) options.kick();
    },

    /**
     * Time travel: lets attempts already in flight finish, then sends what is due up to `until`
     * (immediate retries included), each attempt at its own due time, in batches recorded in due
     * order, so that the jitter drawn for each delivery does not depend on which receiver answered
     * first. The scheduler sets `until` short of any other source's next due item, and an attempt
     * depends on nothing but its delivery, so a batch sent together changes no outcome. A batch is
     * followed through its retries in the window before it takes other deliveries: attempts made
     * within the same wall-clock second share one signature (send.ts). What the pool lets time
     * travel hold (send-pool.ts) is split between LANES batches, one recorded while another waits;
     * with faults in force, one, so that the delivery lab decides in due order.
     */
    async runDue(now: number, until = now, counted?: (ran: number) => void): Promise<number> {
      const begun = { world, cuts };
      const waited = await idle();
      counted?.(waited);
      const lanes = lab.active ? 1 : LANES;
      const size = Math.ceil((pool.max - pool.reserve) / lanes);
      const lane = async (): Promise<number> => {
        let ran = 0;
        let followed: Due[] = [];
        for (;;) {
          // Shutting down, or cut short (a restore is coming): what is left stays pending.
          if (stopped || cuts !== begun.cuts) return ran;
          const retries = rows.stillDue(followed, until);
          const batch = retries.length > 0 ? retries : rows.due(until, size, inFlight.keys());
          if (batch.length === 0) return ran;
          // Held deliveries are not followed: they come back in due order, after what they wait for.
          const started: { due: Due; at: number; outcomes: Promise<Outcome[]> }[] = [];
          for (const due of batch) {
            const at = Math.max(due.nextAttemptAt ?? now, now);
            const decided = plan(due, at);
            if (decided.action !== 'hold') started.push({ due, at, outcomes: perform(due, decided, 'travel', at) });
          }
          // One transaction for the batch: its commit, not each attempt's, wakes what waits on one. A world replaced meanwhile is not this one's to record in.
          const run = Promise.all(started.map((s) => s.outcomes)).then((outcomes) =>
            world === begun.world ? rows.recordAll(started.map(({ due, at }, i) => ({ due, at, outcomes: outcomes[i]! }))) : { stored: 0, pending: [] },
          );
          // Visible to idle() and drain(), like attempts started by pump; and left out of the other lanes' batches.
          for (const { due } of started) inFlight.set(due.id, run);
          const { stored: recorded, pending } = await run.finally(() => started.forEach(({ due }) => inFlight.delete(due.id)));
          followed = pending;
          ran += recorded;
          counted?.(recorded);
          // Nothing could be stored (the database is closing, or the world was replaced): stop rather than resend forever.
          if (recorded === 0 && started.length > 0) return ran;
        }
      };
      const ran = await Promise.all(Array.from({ length: lanes }, lane));
      return ran.reduce((sum, n) => sum + n, waited);
    },
  } satisfies DueSource;

  return {
    source,
    idle,
    get inFlight(): number {
      return inFlight.size;
    },
    /** The programme is deleted: starts no more attempts, and cuts those in flight short at once, recording none. */
    stop(): void {
      stopped = true;
      world++;
      cutShort();
    },
    /** Cuts the attempts in flight short now (each is recorded as failed), and stops time travel under way from sending more. */
    cutShort,
    /**
     * The programme's world is being replaced (a snapshot restored): cuts the attempts in flight
     * short and records none of them; resolves once none is in flight.
     */
    async abandon(): Promise<void> {
      world++;
      cutShort();
      await idle();
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
        cut.abort();
        await idle();
      }
      return finished;
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
