/**
 * The delivery lab's faults in their normal form, as the database and a snapshot file keep them
 * (webhook-faults.ts `Faults`): each field checked to the value, so that faults read from a file
 * are faults the dispatcher can act on — a probability from 0 to 1, a delay range within a day,
 * a failure status from 300 to 599 with what it has left — and nothing else.
 */
import { z } from 'zod';
import { MAX_DELAY_MS, MAX_FAIL_TIMES, probability, Seed, type FailFault, type Faults } from './webhook-faults.js';

const ms = z.int('must be whole milliseconds').min(0, 'must not be negative').max(MAX_DELAY_MS, `must be at most ${MAX_DELAY_MS} ms (a day)`);
const status = z
  .int('must be an HTTP status from 300 to 599')
  .min(300, 'must be an HTTP status from 300 to 599')
  .max(599, 'must be an HTTP status from 300 to 599');
const times = z.int('must be a whole number').min(1, `must be from 1 to ${MAX_FAIL_TIMES}`).max(MAX_FAIL_TIMES, `must be from 1 to ${MAX_FAIL_TIMES}`);

const Fail: z.ZodType<FailFault> = z.union([
  z
    .strictObject({ status, times, remaining: z.int('must be a whole number').min(0, 'must not be negative').max(MAX_FAIL_TIMES) })
    .refine((fail) => fail.remaining <= fail.times, { message: 'remaining must be at most times', path: ['remaining'] }),
  z.strictObject({ status, rate: probability }),
]);

/** Faults as kept; the type is `Faults`, so that a change of that type is a change of this check. */
export const StoredFaults: z.ZodType<Faults> = z
  .strictObject({
    duplicate: probability.optional(),
    reorder: probability.optional(),
    delay: z
      .strictObject({ minMs: ms, maxMs: ms })
      .refine((delay) => delay.minMs <= delay.maxMs, { message: 'minMs must be at most maxMs', path: ['minMs'] })
      .optional(),
    fail: Fail.optional(),
    timeout: probability.optional(),
    forge: probability.optional(),
    seed: Seed.optional(),
  })
  .transform((faults) => Object.fromEntries(Object.entries(faults).filter(([, v]) => v !== undefined)) as Faults);
