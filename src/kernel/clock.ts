/**
 * The sandbox clock: real time plus an offset, or frozen at an instant. Every time-based rule
 * reads `now()`; only `wall()` reads the real clock, for what must follow the integrator's own
 * clock (signature `created`/`expires`, webhook `created`). It never moves backwards, but for a
 * snapshot restored (docs/snapshots.md), which puts it back where it was.
 */
export interface Clock {
  /** Sandbox time in epoch milliseconds. */
  now(): number;
  /** Real wall-clock time in epoch milliseconds. */
  wall(): number;
  readonly frozen: boolean;
  /** Moves sandbox time forward to `t` (never back). */
  advanceTo(t: number): void;
  /** The offset from the wall clock, for persisting a moving clock across restarts. */
  offset(): number;
  /** Puts it at `now`, frozen there or running on from there: a snapshot restored. */
  set(at: ClockState): void;
}

/** Where a clock stands, as a snapshot keeps it. */
export interface ClockState {
  now: number;
  frozen: boolean;
}

export interface ClockOptions {
  /** Start frozen at this instant. */
  frozenAt?: number;
  /** Offset from the wall clock for a moving clock. */
  offset?: number;
  wall?: () => number;
  /** The last instant it shows: a running clock stops there rather than pass it. */
  latest?: number;
}

/**
 * A clock is never given a value that is not a number of milliseconds: every entry refuses those
 * first (domain/instant.ts), and this is the last guard, so that no clock ever reads NaN.
 */
function finite(t: number, what: string): number {
  if (!Number.isFinite(t)) throw new RangeError(`the clock was given ${String(t)} as ${what}`);
  return t;
}

export function createClock(options: ClockOptions = {}): Clock {
  if (options.frozenAt !== undefined) finite(options.frozenAt, 'its instant');
  if (options.offset !== undefined) finite(options.offset, 'its offset');
  const wall = options.wall ?? Date.now;
  let frozen = options.frozenAt !== undefined;
  let fixed = options.frozenAt ?? 0;
  let offset = options.offset ?? 0;
  let last = 0;
  const latest = options.latest ?? Number.POSITIVE_INFINITY;
  const now = () => {
    const t = Math.min(frozen ? fixed : wall() + offset, latest);
    if (t > last) last = t;
    return last;
  };
  return {
    get frozen() {
      return frozen;
    },
    wall,
    now,
    advanceTo(t: number) {
      finite(t, 'the instant to move to');
      const current = now();
      if (t <= current) return;
      if (frozen) fixed = t;
      else offset += t - current;
      last = t;
    },
    offset: () => (frozen ? fixed - wall() : offset),
    set(at) {
      finite(at.now, 'its instant');
      frozen = at.frozen;
      fixed = at.now;
      offset = at.now - wall();
      last = at.now;
    },
  };
}
