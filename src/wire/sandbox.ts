/**
 * The control plane's answers about a programme as a whole (docs/control-plane.md): its health, its
 * clock and what a reset wiped. `Instant` is how every control answer writes a moment.
 */
import { z } from 'zod';
import { Count } from '../domain/formats.js';
import { CLOCK_INSTANT_PATTERN, parseClockOption } from '../domain/instant.js';

/** A moment, as every control answer writes it. */
export const Instant = z.string().meta({ format: 'date-time' });

/** An instant a control request names: an ISO 8601 date or date-time (UTC unless it has an offset), read as epoch ms. */
export const InstantInput = z
  .string()
  .meta({ pattern: CLOCK_INSTANT_PATTERN, description: 'An ISO 8601 date or date-time, UTC unless it has an offset: `2026-03-01T09:00:00Z`' })
  .transform((value, ctx) => {
    const at = value === 'now' ? undefined : parseClockOption(value, 0);
    if (at === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date or date-time, such as 2026-03-01T09:00:00Z' });
      return z.NEVER;
    }
    return at;
  });

/** The programme's sandbox clock. */
export const ClockState = z.object({ now: Instant, frozen: z.boolean() }).meta({ id: 'ClockState' });
export type ClockState = z.infer<typeof ClockState>;

/** GET /_sandbox/clock: the clock, and while an advance runs, where it goes and how many due items have run so far. */
export const ClockReading = ClockState.extend({
  advancing: z
    .object({ to: Instant, ran: Count })
    .optional()
    .meta({ description: 'While `POST /_sandbox/clock/advance` runs: its target, and the due items run so far (for a progress count)' }),
}).meta({ id: 'ClockReading' });
export type ClockReading = z.infer<typeof ClockReading>;

/** POST /_sandbox/clock/advance: the new time and how many due jobs ran on the way. */
export const Advanced = z.object({ now: Instant, ran: Count }).meta({ id: 'Advanced' });

/** GET /_sandbox/health. */
export const Health = z
  .object({
    status: z.string(),
    version: z.string(),
    env: z.enum(['sandbox', 'production']),
    verify: z.enum(['strict', 'warn', 'off']),
    /** The programme's sandbox time. */
    clock: Instant,
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof Health>;

/** POST /_sandbox/reset: how many rows of each kind, and journal entries (`requests`), were wiped. */
export const Wiped = z.object({ wiped: z.record(z.string(), Count) }).meta({ id: 'Wiped' });
