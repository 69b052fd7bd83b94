/**
 * The request journal's entries (docs/control-plane.md): one API request as the sandbox saw it, with
 * what verification found and the fault the API fault lab put on it.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../domain/errors.js';
import { ApiFaultView } from './api-faults.js';
import { Instant } from './sandbox.js';

const Failure = z.object({ code: z.enum(ERROR_CODES), detail: z.string() });

/** One API request as the journal keeps it; details only when something went wrong. */
export const JournalEntry = z
  .object({
    requestId: z.string(),
    time: Instant,
    method: z.string(),
    path: z.string(),
    /** 0 for a connection the API fault lab closed without an answer. */
    status: z.number().int(),
    durationMs: z.number().min(0),
    warnings: z.array(z.string()),
    replayed: z.boolean(),
    /** The problem it was answered with. */
    problem: Failure.optional(),
    /** What request verification found when at least one check failed. */
    verification: z
      .object({
        /** `refused` in --verify strict (the first failure is the answer), `warned` in warn. */
        outcome: z.enum(['refused', 'warned']),
        /** Every failed check, in the order they run: digest, signature, idempotency key. */
        failures: z.array(Failure),
        /** The headers the checks read, as received (never Authorization). */
        headers: z.record(z.string(), z.string()),
        /** The RFC 9421 signature base the sandbox computed, when it could. */
        signatureBase: z.string().optional(),
      })
      .optional(),
    /** The fault the API fault lab put on it: which rule (from 1), or its own Sandbox-Fault header. */
    fault: ApiFaultView.extend({ source: z.union([z.number().int().min(1), z.literal('header')]) }).optional(),
    /** The Idempotency-Key it carried, if any. */
    idempotencyKey: z.string().optional(),
    /**
     * The machine's clock, whatever the sandbox clock does: when the request arrived and when its answer was
     * made, epoch milliseconds to the microsecond. The go-live report orders requests and measures waits by it.
     */
    real: z.object({ received: z.number().min(0), answered: z.number().min(0) }).optional(),
    /** A write's body (outside /v1/auth) as a SHA-256 digest (`sha-256=:…:`), never the body: how the go-live report tells a retry of the same write. */
    bodyDigest: z.string().optional(),
    /** Request verification ran on it (not with --verify off, nor on one refused at authentication or answered by the API fault lab first). */
    verified: z.literal(true).optional(),
  })
  .meta({ id: 'JournalEntry' });
export type JournalEntry = z.infer<typeof JournalEntry>;
export type JournalProblem = z.infer<typeof Failure>;
export type VerificationFailure = JournalProblem;
export type Verification = NonNullable<JournalEntry['verification']>;
export type JournalFault = NonNullable<JournalEntry['fault']>;
