/**
 * The webhook retry schedule (docs/webhooks.md: Webhooks), as data plus one pure function. After a failed
 * attempt the next one comes immediately, then after 1 s, 2 s and 4 s, then after waits that
 * double from 30 s (30 s, 60 s, 120 s, …) with ±20 % jitter, each wait capped at 2 h — for as
 * long as the next attempt falls within 24 h of the first one; after that the delivery is
 * discarded. All times are sandbox time, so time travel runs the whole day of retries.
 *
 * For a receiver that fails at once, with the jitter at its midpoint, the attempts fall at 0 s,
 * 0 s, 1 s, 3 s, 7 s, 37 s, 97 s, 217 s, … 7657 s (the ninth doubling wait would pass 2 h), then
 * every 2 h until 79657 s (22 h 7 min): 23 attempts in all, then the delivery is discarded.
 */

export interface RetryPolicy {
  /** Waits after the 1st, 2nd, … failure, before the doubling starts; never jittered. */
  readonly fixedWaitsMs: readonly number[];
  /** The first doubling wait. */
  readonly backoffStartMs: number;
  readonly backoffFactor: number;
  /** Doubling waits are multiplied by a factor drawn uniformly from [1 - jitter, 1 + jitter). */
  readonly jitter: number;
  /** No wait (after jitter) is longer than this. */
  readonly maxWaitMs: number;
  /** The next attempt must fall within this long after the first attempt, else the delivery is discarded. */
  readonly windowMs: number;
}

export const RETRY_POLICY: RetryPolicy = {
  fixedWaitsMs: [0, 1_000, 2_000, 4_000],
  backoffStartMs: 30_000,
  backoffFactor: 2,
  jitter: 0.2,
  maxWaitMs: 2 * 60 * 60 * 1000,
  windowMs: 24 * 60 * 60 * 1000,
};

/**
 * The wait after the `failures`-th failed attempt (1-based). `random` is a draw from [0, 1);
 * it only matters for the doubling waits (0.5 gives the wait without jitter).
 */
export function retryWait(failures: number, random: number, policy: RetryPolicy = RETRY_POLICY): number {
  const fixed = policy.fixedWaitsMs[failures - 1];
  if (fixed !== undefined) return fixed;
  const doublings = failures - 1 - policy.fixedWaitsMs.length;
  const base = policy.backoffStartMs * policy.backoffFactor ** doublings;
  const jittered = Math.round(base * (1 + policy.jitter * (2 * random - 1)));
  return Math.min(jittered, policy.maxWaitMs);
}

export interface Failure {
  /** How many attempts have failed so far, this one included. */
  failures: number;
  /** When the first attempt was made. */
  firstAttemptAt: number;
  /** When this attempt failed. */
  failedAt: number;
  /** A draw from [0, 1) for the jitter. */
  random: number;
}

/** When to try again after a failure, or undefined when the delivery is to be discarded. */
export function nextAttemptAt(failure: Failure, policy: RetryPolicy = RETRY_POLICY): number | undefined {
  const at = failure.failedAt + retryWait(failure.failures, failure.random, policy);
  return at - failure.firstAttemptAt <= policy.windowMs ? at : undefined;
}
