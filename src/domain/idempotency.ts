/** Idempotency keys (docs/signatures.md: Idempotency): the requests that need one, and how long one is kept. */

/** The methods that change something: each needs an Idempotency-Key. */
export const MUTATIONS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A key is kept for this long of sandbox time. */
export const IDEMPOTENCY_TTL_MS = 3_600_000;
