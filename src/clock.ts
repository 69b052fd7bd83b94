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
}

export function createClock(options: ClockOptions = {}): Clock {
  const wall = options.wall ?? Date.now;
  let frozen = options.frozenAt !== undefined;
  let fixed = options.frozenAt ?? 0;
  let offset = options.offset ?? 0;
  let last = 0;
  const now = () => {
    const t = frozen ? fixed : wall() + offset;
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
      const current = now();
      if (t <= current) return;
      if (frozen) fixed = t;
      else offset += t - current;
      last = t;
    },
    offset: () => (frozen ? fixed - wall() : offset),
    set(at) {
      frozen = at.frozen;
      fixed = at.now;
      offset = at.now - wall();
      last = at.now;
    },
  };
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Parses a `--clock` value: `now`, or an ISO 8601 date or date-time. A date-time without an offset
 * is read as UTC (not the machine's local time), so a given value means the same instant
 * everywhere. Returns undefined for junk and for dates not on the calendar (2026-02-30).
 */
export function parseClockOption(value: string, wallNow: number): number | undefined {
  if (value === 'now') return wallNow;
  const m = INSTANT.exec(value);
  if (!m) return undefined;
  const t = Date.parse(m[2] !== undefined && m[3] === undefined ? `${value}Z` : value);
  if (Number.isNaN(t)) return undefined;
  const [y, mo, d] = m[1]!.split('-').map(Number) as [number, number, number];
  // Date.parse rolls an impossible day over into the next month; refuse it instead.
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCMonth() === mo - 1 && day.getUTCDate() === d ? t : undefined;
}

/** RFC 3339 UTC with milliseconds. */
export function iso(t: number): string {
  return new Date(t).toISOString();
}
