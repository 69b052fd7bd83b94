/**
 * The sandbox clock: real time plus an offset, or frozen at an instant. Every time-based rule
 * reads `now()`; only `wall()` reads the real clock, for what must follow the integrator's own
 * clock (signature `created`/`expires`, webhook `created`). It never moves backwards.
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
}

export interface ClockOptions {
  /** Start frozen at this instant. */
  frozenAt?: number;
  /** Offset from the wall clock for a moving clock. */
  offset?: number;
  wall?: () => number;
}

export function createClock(options: ClockOptions = {}): Clock {
  const wall = options.wall ?? Date.now;
  const frozen = options.frozenAt !== undefined;
  let fixed = options.frozenAt ?? 0;
  let offset = options.offset ?? 0;
  let last = 0;
  return {
    frozen,
    wall,
    now() {
      const t = frozen ? fixed : wall() + offset;
      if (t > last) last = t;
      return last;
    },
    advanceTo(t: number) {
      const current = this.now();
      if (t <= current) return;
      if (frozen) fixed = t;
      else offset += t - current;
      last = t;
    },
    offset: () => (frozen ? fixed - wall() : offset),
  };
}

/** Parses a `--clock` value: an ISO 8601 instant or `now`. Returns undefined for junk. */
export function parseClockOption(value: string, wallNow: number): number | undefined {
  if (value === 'now') return wallNow;
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/** RFC 3339 UTC with milliseconds. */
export function iso(t: number): string {
  return new Date(t).toISOString();
}
