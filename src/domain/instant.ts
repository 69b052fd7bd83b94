/**
 * Instants of sandbox time: the range the sandbox supports, how one is read from an option or a
 * body, and how one is written on the wire (RFC 3339, UTC, with milliseconds).
 *
 * The range (docs/control-plane.md: The range of time) is 1970-01-01T00:00:00.000Z to
 * 9999-12-31T23:59:59.999Z: every instant in it is a four-digit year on the wire, and every
 * calendar sum that stays in it is a real date. Whatever reaches a clock — an advance, a
 * programme's `clock`, `--clock`, a snapshot file's clock and instants — is checked against it
 * first; nothing outside it is clamped, it is refused, naming the range.
 */
const INSTANT = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * What `readClockOption` reads, as a pattern for the documents: a date, or a date-time with minutes
 * (seconds and milliseconds optional) and an optional offset, in the years of the range, on a day of
 * the calendar (29 February aside, which the pattern leaves to the reader).
 */
/** A month and a day of it, as a pattern: every day on the calendar but 29 February, which is not in every year. */
export const MONTH_DAY = '(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)';
const CLOCK_INSTANT =
  `(?:19[7-9][0-9]|[2-9][0-9]{3})-${MONTH_DAY}` +
  '(?:T(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]{1,3})?)?(?:Z|[+-](?:0[0-9]|1[0-3]):[0-5][0-9])?)?';
export const CLOCK_INSTANT_PATTERN = `^${CLOCK_INSTANT}$`;
/** A `--clock` value or a programme's `clock`: `now`, or such an instant. */
export const CLOCK_OPTION_PATTERN = `^(?:now|${CLOCK_INSTANT})$`;

/** The first instant the sandbox's clock can show: the Unix epoch. */
export const MIN_INSTANT = 0;
/** The last: the end of year 9999. */
export const MAX_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The range in words, for refusals: `from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z`. */
export const INSTANT_RANGE = `from ${new Date(MIN_INSTANT).toISOString()} to ${new Date(MAX_INSTANT).toISOString()}`;

/** What is wrong with `t` as an instant of sandbox time (epoch ms); undefined when nothing is. */
export function instantProblem(t: number): string | undefined {
  if (!Number.isFinite(t)) return `must be an instant ${INSTANT_RANGE}, got a value that is not a number`;
  if (!Number.isInteger(t)) return 'must be a whole number of milliseconds';
  if (t < MIN_INSTANT || t > MAX_INSTANT) return `must be an instant ${INSTANT_RANGE} (the range of the sandbox's clock)`;
  return undefined;
}

/** A clock option read: the instant, or why there is none. */
export type ClockOption = { at: number } | { problem: string };

/**
 * Reads a `--clock` value: `now`, or an ISO 8601 date or date-time. A date-time without an offset
 * is read as UTC (not the machine's local time), so a given value means the same instant
 * everywhere. Junk, dates not on the calendar (2026-02-30) and instants outside the range are refused.
 */
export function readClockOption(value: string, wallNow: number): ClockOption {
  const junk = { problem: 'must be an ISO 8601 date or date-time (e.g. 2026-01-01T09:00:00Z) or "now"' };
  if (value === 'now') return { at: wallNow };
  const m = INSTANT.exec(value);
  if (!m) return junk;
  const t = Date.parse(m[2] !== undefined && m[3] === undefined ? `${value}Z` : value);
  if (Number.isNaN(t)) return junk;
  const notADay = calendarDayProblem(m[1]!);
  if (notADay) return { problem: notADay };
  const problem = instantProblem(t);
  return problem === undefined ? { at: t } : { problem };
}

/**
 * Why the date `YYYY-MM-DD` (the start of an instant's text) is not a day on the calendar, or
 * undefined: `Date.parse` rolls an impossible day (2026-02-30) over into the next month, so every
 * reader of an instant a user gives refuses it here instead.
 */
export function calendarDayProblem(text: string): string | undefined {
  const date = text.slice(0, 10);
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCMonth() === mo - 1 && day.getUTCDate() === d ? undefined : `must be a day on the calendar (${date} is not)`;
}

/** `readClockOption`'s instant, or undefined for anything it refuses. */
export function parseClockOption(value: string, wallNow: number): number | undefined {
  const read = readClockOption(value, wallNow);
  return 'at' in read ? read.at : undefined;
}

let lastInstant = Number.NaN;
let lastIso = '';
let previousInstant = Number.NaN;
let previousIso = '';

/**
 * RFC 3339 UTC with milliseconds. The last two are kept: formatting costs a microsecond, and a
 * request's journal entry, the answers of a busy millisecond and a frozen clock ask for the same
 * instant again and again, a challenge's issue and expiry in turn.
 */
export function iso(t: number): string {
  if (t === lastInstant) return lastIso;
  if (t === previousInstant) return previousIso;
  const text = new Date(t).toISOString();
  previousInstant = lastInstant;
  previousIso = lastIso;
  lastInstant = t;
  lastIso = text;
  return text;
}
