/**
 * Where a clock advance lands: `{by}` an ISO 8601 duration or shorthand (`PT25H`, `25h`, `30d`,
 * calendar years and months too: `P3Y`, `P1M`, `1y`, `1mo`),
 * or `{to}` an RFC 3339 instant in the future. The clock never moves backwards, so zero, negative
 * and past targets are refused, as is a jump beyond 100 years (past it dates stop being dates).
 */
import { z } from 'zod';
import { calendarDayProblem, iso, MAX_INSTANT } from './instant.js';
import { echo } from './echo.js';
import { addCalendar, CALENDAR_DURATION_PATTERN, durationMistake, parseCalendarDuration } from './duration.js';
import { fail } from './errors.js';
import { exactlyOneOf } from './field-rules.js';

const DURATION = new RegExp(CALENDAR_DURATION_PATTERN);

/** 100 years of the calendar, leap days included. */
export const MAX_ADVANCE_MS = 36_525 * 86_400_000;

/**
 * An RFC 3339 instant with each field in its range (24:00 too, which is the next day's midnight):
 * what `Date.parse` reads, so that the pattern the document states is the whole rule.
 */
const INSTANT = new RegExp(
  '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt]' +
    '(?:(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]+)?)?|24:00(?::00(?:\\.0+)?)?)' +
    '(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$',
);

/** POST /_sandbox/clock/advance; `advanceTarget` checks the values, and that exactly one is given. */
export const AdvanceRequest = z
  .strictObject({
    by: z.string().optional().meta({
      pattern: CALENDAR_DURATION_PATTERN,
      description: 'A duration to move forward: `90s`, `2h`, `1d12h`, `30d`, `1mo`, `P1Y`; more than zero, at most 100 years',
    }),
    to: z.string().optional().meta({ pattern: INSTANT.source, description: 'An RFC 3339 instant to move to, later than the clock, at most 100 years ahead' }),
  })
  .meta(exactlyOneOf(['by', 'to']));
export type AdvanceRequest = z.infer<typeof AdvanceRequest>;

const refuse = (path: 'by' | 'to', message: string): never => fail('invalid_request', `invalid body: ${path} ${message}`, [{ path, message }]);

/** The epoch ms to advance to from `now`, or a 400 naming the offending field. */
export function advanceTarget(request: AdvanceRequest, now: number): number {
  const { by, to } = request;
  if ((by === undefined) === (to === undefined)) {
    fail('invalid_request', 'invalid body: give exactly one of "by" (a duration such as "PT25H" or "25h") or "to" (a future instant)', [
      { path: by === undefined ? 'by' : 'to', message: 'give exactly one of by or to' },
    ]);
  }
  if (by !== undefined) {
    const duration = parseCalendarDuration(by);
    // What the document's pattern takes and the reader cannot hold is a count of days or seconds too large for any date.
    if (duration === undefined && DURATION.test(by)) return refuse('by', `must be at most 100 years, got ${echo(by)}`);
    if (duration === undefined)
      return refuse(
        'by',
        durationMistake(by) ??
          `must be a positive ISO 8601 duration ("PT25H", "P30D", "P1M", "P3Y") or shorthand ("90s", "25h", "1d12h", "30d", "1mo", "1y"), got ${echo(by)}`,
      );
    const at = addCalendar(now, duration);
    if (at <= now) return refuse('by', `must be longer than zero, got ${echo(by)}`);
    // A count of years or months past what a date holds gives no instant at all (NaN).
    if (!(at - now <= MAX_ADVANCE_MS)) return refuse('by', `must be at most 100 years, got ${echo(by)}`);
    if (at > MAX_INSTANT) return refuse('by', `must not move the clock past ${iso(MAX_INSTANT)}, the last instant RFC 3339 can write`);
    return at;
  }
  const at = INSTANT.test(to!) ? Date.parse(to!) : Number.NaN;
  if (Number.isNaN(at)) return refuse('to', `must be an RFC 3339 instant such as "2027-01-01T00:00:00Z", got ${echo(to!)}`);
  const notADay = calendarDayProblem(to!);
  if (notADay) return refuse('to', notADay);
  if (at <= now) return refuse('to', `must be later than the sandbox clock (${iso(now)}); the clock never moves backwards`);
  if (at - now > MAX_ADVANCE_MS) return refuse('to', 'must be at most 100 years ahead');
  if (at > MAX_INSTANT) return refuse('to', `must be at most ${iso(MAX_INSTANT)}, the last instant RFC 3339 can write`);
  return at;
}
