/**
 * The scheduler: everything that falls due at a sandbox time (jobs, webhook attempts) is a
 * `DueSource`. In real time a tick runs what is due every 100 ms and whenever work is added;
 * `advance(to)` is time travel: it moves the clock to each due time in order, runs what falls due
 * there and waits for it, then lands on `to`. One path serves both, so tests and the control plane
 * exercise the same code.
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
   * own due time: no other source has anything due before then. A source may ignore it.
   */
  runDue(now: number, until?: number): Promise<number> | number;
  /** Real-time variant that must not block (e.g. starts deliveries without waiting for them). */
  pump?(now: number): void;
}

const TICK_MS = 100;

export function createScheduler(clock: Clock, log: Log) {
  const sources: DueSource[] = [];
  const busy = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let kicked = false;
  let advancing: Promise<unknown> | undefined;

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

  const tick = () => {
    kicked = false;
    if (advancing || !timer) return;
    const now = clock.now();
    for (const source of sources) {
      if (source.pump) source.pump(now);
      else if (!busy.has(source.name)) {
        const due = source.nextDue();
        if (due !== undefined && due <= now) void runSource(source, now);
      }
    }
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

  return {
    add(source: DueSource): void {
      sources.push(source);
    },
    start(): void {
      timer ??= setInterval(tick, TICK_MS);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    /** Asks for a tick soon (after the current transaction has committed). */
    kick(): void {
      if (kicked || !timer) return;
      kicked = true;
      setImmediate(tick);
    },
    nextDue,
    /** Time travel to `to` (epoch ms): runs every due item in due order at its own time. */
    async advance(to: number): Promise<{ now: number; ran: number }> {
      while (advancing) await advancing;
      let ran = 0;
      const run = (async () => {
        // Let work already started in real time finish first, so nothing runs twice.
        while (busy.size > 0) await new Promise((r) => setTimeout(r, 5));
        for (;;) {
          const due = nextDue();
          if (due === undefined || due > to) break;
          clock.advanceTo(due);
          const now = clock.now();
          let ranHere = 0;
          for (const source of sources) {
            const d = source.nextDue();
            if (d !== undefined && d <= now) ranHere += await source.runDue(now, windowEnd(source, now, to));
          }
          ran += ranHere;
          // A source that reports due work but runs none would spin forever: stop instead.
          if (ranHere === 0 && nextDue() === due) {
            log.warn('scheduler: due work did not run during advance', { due });
            break;
          }
        }
        clock.advanceTo(to);
      })();
      advancing = run;
      try {
        await run;
      } finally {
        advancing = undefined;
      }
      return { now: clock.now(), ran };
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
