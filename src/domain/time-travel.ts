/**
 * Where a clock advance lands: `{by}` an ISO 8601 duration or shorthand (`PT25H`, `25h`, `30d`,
 * calendar years and months too: `P3Y`, `P1M`, `1y`, `1mo`),
 * or `{to}` an RFC 3339 instant in the future. The clock never moves backwards, so zero, negative
 * and past targets are refused, as is a jump beyond 100 years (past it dates stop being dates).
 */
import { z } from 'zod';
import { iso } from './instant.js';
import { addCalendar, durationMistake, parseCalendarDuration } from './duration.js';
import { fail } from './errors.js';

/** 100 years of the calendar, leap days included. */
export const MAX_ADVANCE_MS = 36_525 * 86_400_000;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/** POST /_sandbox/clock/advance; `advanceTarget` checks the values. */
export const AdvanceRequest = z.object({
  by: z.string().optional().meta({ description: 'A duration to move forward: `90s`, `2h`, `30d`, `1mo`' }),
  to: z.string().optional().meta({ description: 'An ISO 8601 instant to move to' }),
});
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
    if (duration === undefined) {
      const mistake = durationMistake(by);
      return refuse(
        'by',
        mistake ?? `must be a positive ISO 8601 duration ("PT25H", "P30D", "P1M", "P3Y") or shorthand ("90s", "25h", "1d12h", "30d", "1mo", "1y"), got "${by}"`,
      );
    }
    const at = addCalendar(now, duration);
    if (at <= now) return refuse('by', `must be longer than zero, got "${by}"`);
    if (at - now > MAX_ADVANCE_MS) return refuse('by', `must be at most 100 years, got "${by}"`);
    return at;
  }
  const at = INSTANT.test(to!) ? Date.parse(to!) : Number.NaN;
  if (Number.isNaN(at)) return refuse('to', `must be an RFC 3339 instant such as "2027-01-01T00:00:00Z", got "${to}"`);
  if (at <= now) return refuse('to', `must be later than the sandbox clock (${iso(now)}); the clock never moves backwards`);
  if (at - now > MAX_ADVANCE_MS) return refuse('to', 'must be at most 100 years ahead');
  return at;
}
