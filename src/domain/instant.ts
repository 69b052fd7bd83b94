/**
 * Instants of sandbox time: how one is read from an option or a body, and how one is written on the
 * wire (RFC 3339, UTC, with milliseconds).
 */
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
