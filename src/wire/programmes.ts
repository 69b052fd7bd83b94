/**
 * Programmes on the control plane (docs/programmes.md: Parallel test suites): the body that makes
 * one and how one is shown.
 */
import { z } from 'zod';
import { excludes } from '../domain/field-rules.js';
import { holdExpiryProblem } from '../domain/authorisation.js';
import { parseDuration } from '../domain/duration.js';
import { Uuid } from '../domain/formats.js';
import { Balance } from './funds.js';
import { ClockState, Instant } from './sandbox.js';

/** POST /_sandbox/programmes. */
export const NewProgramme = z
  .strictObject(
    {
      name: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
      /** Start the clock frozen at this instant (`now` or an ISO 8601 date-time); running otherwise. */
      clock: z.string({ error: 'must be "now" or an ISO 8601 date-time' }).optional(),
      /** Draw its ids and randomness from this seed, so that the same requests give the same answers. */
      randomSeed: z
        .number({ error: 'must be an integer' })
        .int('must be an integer')
        .min(0)
        .max(2 ** 32 - 1)
        .optional(),
      /** A snapshot's id: the programme starts from its world, clock and seed (docs/snapshots.md: Forks). */
      from: Uuid.optional(),
      /** How long its holds wait to be captured before they are released (docs/money-path.md: Holds that expire); --hold-expiry otherwise. */
      holdExpiry: z
        .string({ error: 'must be a duration such as "7d"' })
        .superRefine((value, ctx) => {
          const problem = holdExpiryProblem(parseDuration(value));
          if (problem) ctx.addIssue({ code: 'custom', message: `${problem}, got "${value}"` });
        })
        .optional()
        .meta({ description: 'How long a pending authorisation waits to be captured before it is released: `7d`, `36h`, `P30D`; --hold-expiry otherwise' }),
      /** The balance its new accounts start with (docs/money-path.md: Funds); --starting-balance otherwise. */
      startingBalance: Balance.optional().meta({
        description: 'The balance a new account\'s smart account starts with, in its currency: `"100"`; --starting-balance otherwise',
      }),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) },
  )
  .superRefine((body, ctx) => {
    if (body.from === undefined) return;
    for (const key of ['clock', 'randomSeed'] as const) {
      if (body[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'comes from the snapshot named by from: leave it out' });
    }
  })
  .meta(excludes('from', ['clock', 'randomSeed']));
export type NewProgramme = z.infer<typeof NewProgramme>;

export const ProgrammeSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    apiKeys: z.array(z.string()),
    clock: ClockState,
    holdExpiry: z.string().meta({ description: 'How long its holds wait to be captured before they are released (`7d`)' }),
    startingBalance: z.string().meta({ description: "The balance its new accounts start with, in each one's currency" }),
    createdAt: Instant,
  })
  .meta({ id: 'ProgrammeSummary' });
export type ProgrammeSummary = z.infer<typeof ProgrammeSummary>;

/** A new programme: its credentials are answered once. */
export const CreatedProgramme = ProgrammeSummary.extend({ apiKey: z.string(), apiSecret: z.string() }).meta({ id: 'CreatedProgramme' });
export type CreatedProgramme = z.infer<typeof CreatedProgramme>;
