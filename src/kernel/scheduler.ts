/**
 * Scheduling. A programme's scheduler gathers what falls due at a time of its clock (jobs, webhook
 * attempts): each is a `DueSource`. In real time a tick runs what is due; `advance(to)` is time
 * travel: it moves the clock to each due time in order, runs what falls due there and waits for
 * it, then lands on `to`. One path serves both, so tests and the control plane exercise the same
 * code. The ticker is the one timer of a whole sandbox: it ticks each started scheduler when its
 * next item falls due on the wall clock, or at once when work is added, so an idle programme costs
 * nothing (docs/programmes.md: Parallel test suites).
 */
import type { Clock } from './clock.js';
import type { Log } from './log.js';

export interface DueSource {
  readonly name: string;
  /** The earliest due time, or undefined when nothing is waiting. */
  nextDue(): number | undefined;
  /**
   * Runs everything due at or before `now` and resolves when it has finished; returns how many ran.
   * During time travel `until` (≥ now) is how far the source may go in this call, each item at its
   * own due time: no other source has anything due before then. A source may ignore it. A source
   * that runs a long window in one call tells `counted` how many have run as it goes.
   */
  runDue(now: number, until?: number, counted?: (ran: number) => void): Promise<number> | number;
  /** Real-time variant that must not block (e.g. starts deliveries without waiting for them). */
  pump?(now: number): void;
}

const TICK_MS = 100;

/**
 * During time travel, the event loop gets a turn after this many due items have run, so that a
 * long advance can be asked how far it has got (GET /_sandbox/clock: `advancing`) and a client can
 * show it. Counted, not timed, so that a run does the same whatever the machine's speed.
 */
export const ADVANCE_YIELD_EVERY = 500;

/** What the ticker ticks: a function that runs what is due and says when, on the wall clock, to tick it next. */
type Tick = () => number;

export function createTicker(wall: () => number = Date.now) {
  const wakeAt = new Map<Tick, number>();
  let timer: NodeJS.Timeout | undefined;
  let soon = false;

  const tickDue = () => {
    soon = false;
    const now = wall();
    for (const [tick, at] of wakeAt) if (at <= now) wakeAt.set(tick, tick());
  };

  /** Asks for a tick of `tick` soon (after the current transaction has committed). */
  const wake = (tick: Tick): void => {
    if (!wakeAt.has(tick)) return;
    wakeAt.set(tick, 0);
    if (soon) return;
    soon = true;
    setImmediate(tickDue);
  };

  return {
    wake,
    /** Ticks `tick` from now on (at once first); returns the function that stops it. */
    add(tick: Tick): () => void {
      wakeAt.set(tick, 0);
      timer ??= setInterval(tickDue, TICK_MS);
      timer.unref();
      wake(tick);
      return () => {
        wakeAt.delete(tick);
        if (wakeAt.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    /** How many schedulers are started. */
    get started(): number {
      return wakeAt.size;
    },
  };
}

export type Ticker = ReturnType<typeof createTicker>;

export function createScheduler(clock: Clock, log: Log, ticker: Ticker) {
  const sources: DueSource[] = [];
  const busy = new Set<string>();
  let stopTicking: (() => void) | undefined;
  /** Settles when the work running exclusively (an advance, a restore) is done; undefined when none is. */
  let holding: Promise<void> | undefined;
  /** The advance under way: where it goes, and how many due items have run so far. */
  let progress: { to: number; ran: number } | undefined;
  /** Counts the calls to `interrupt`: an advance that sees it change stops where it got to. */
  let interruptions = 0;

  const runSource = async (source: DueSource, now: number) => {
    busy.add(source.name);
    try {
      await source.runDue(now);
    } catch (error) {
      log.error(`scheduler: ${source.name} failed`, { error: String(error) });
    } finally {
      busy.delete(source.name);
    }
  };

  /** Runs what is due now; returns the wall-clock time at which the next item falls due. */
  const tick = (): number => {
    if (holding) return 0;
    try {
      const now = clock.now();
      for (const source of sources) {
        if (source.pump) source.pump(now);
        else if (!busy.has(source.name)) {
          const due = source.nextDue();
          if (due !== undefined && due <= now) void runSource(source, now);
        }
      }
    } catch (error) {
      log.error('scheduler: a tick failed', { error: String(error) });
      return 0;
    }
    const due = nextDue();
    if (due === undefined) return Number.POSITIVE_INFINITY;
    // Due already (or running): tick again. A frozen clock moves only by advance, which wakes it.
    if (due <= clock.now() || busy.size > 0) return 0;
    return clock.frozen ? Number.POSITIVE_INFINITY : due - clock.offset();
  };

  /** The latest time `source` may run to in one step of time travel: `to`, short of any other source's next item. */
  const windowEnd = (source: DueSource, now: number, to: number) => {
    let end = to;
    for (const other of sources) {
      const due = other === source ? undefined : other.nextDue();
      if (due !== undefined) end = Math.min(end, due - 1);
    }
    return Math.max(end, now);
  };

  const nextDue = () => {
    let min: number | undefined;
    for (const source of sources) {
      const due = source.nextDue();
      if (due !== undefined && (min === undefined || due < min)) min = due;
    }
    return min;
  };

  /** Time travel's steps: each due item in due order at its own time, counted in `progress`, then `to`; interrupted, where it got to. */
  const travel = async (to: number, progress: { ran: number }): Promise<{ now: number; ran: number }> => {
    const begun = interruptions;
    let sinceTurn = 0;
    for (;;) {
      if (interruptions !== begun) return { now: clock.now(), ran: progress.ran };
      const due = nextDue();
      if (due === undefined || due > to) break;
      clock.advanceTo(due);
      const now = clock.now();
      let ranHere = 0;
      for (const source of sources) {
        const d = source.nextDue();
        if (d === undefined || d > now) continue;
        const before = progress.ran;
        const ran = await source.runDue(now, windowEnd(source, now, to), (n) => (progress.ran += n));
        // What it returns is the count kept.
        progress.ran = before + ran;
        ranHere += ran;
      }
      if (interruptions !== begun) return { now: clock.now(), ran: progress.ran };
      // A source that reports due work but runs none would spin forever: stop instead.
      if (ranHere === 0 && nextDue() === due) {
        log.warn('scheduler: due work did not run during advance', { due });
        break;
      }
      sinceTurn += ranHere;
      if (sinceTurn >= ADVANCE_YIELD_EVERY) {
        sinceTurn = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    clock.advanceTo(to);
    return { now: clock.now(), ran: progress.ran };
  };

  const exclusively = async <T>(work: () => Promise<T> | T): Promise<T> => {
    while (holding) await holding;
    const run = (async () => {
      // Let work already started in real time finish first, so nothing runs twice.
      while (busy.size > 0) await new Promise((r) => setTimeout(r, 5));
      return work();
    })();
    holding = run.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await run;
    } finally {
      holding = undefined;
      // What falls due next, on the wall clock, may have moved with the clock.
      ticker.wake(tick);
    }
  };

  return {
    add(source: DueSource): void {
      sources.push(source);
    },
    /** Runs what falls due in real time, from now on. */
    start(): void {
      stopTicking ??= ticker.add(tick);
    },
    stop(): void {
      stopTicking?.();
      stopTicking = undefined;
    },
    /** Asks for a tick soon (after the current transaction has committed). */
    kick(): void {
      ticker.wake(tick);
    },
    nextDue,
    /**
     * Runs `work` while nothing else of the programme's due work runs: once an advance under way and
     * what ticks started have finished, with ticks held until it is done. Time travel runs so, and
     * so does a snapshot's restore.
     */
    exclusively,
    /**
     * Stops an advance under way where it has got to (its world is about to be replaced: a snapshot
     * restored), rather than let it go on waiting on receivers; an advance begun later is not touched.
     */
    interrupt(): void {
      interruptions++;
    },
    /** Time travel to `to` (epoch ms): runs every due item in due order at its own time. */
    advance: (to: number): Promise<{ now: number; ran: number }> =>
      exclusively(async () => {
        const under = { to, ran: 0 };
        progress = under;
        try {
          return await travel(to, under);
        } finally {
          progress = undefined;
        }
      }),
    /** The advance under way, if any: where it goes and how many due items have run so far. */
    advancing: (): { to: number; ran: number } | undefined => progress && { ...progress },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
