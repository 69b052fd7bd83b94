/** Idempotency keys (docs/signatures.md: Idempotency): the requests that need one, and how long one is kept. */
import { z } from 'zod';

/** The methods that change something: each needs an Idempotency-Key. */
export const MUTATIONS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A key is kept for this long of sandbox time. */
export const IDEMPOTENCY_TTL_MS = 3_600_000;

/**
 * … while it is among the newest a programme kept answers for: at most this many keys, and this
 * many bytes of answers (bodies and headers) between them. Older ones are forgotten sooner.
 */
export const KEPT_KEYS = { count: 10_000, bytes: 16 * 1_048_576 } as const;

/** The headers of an answer kept under its key, which a replay sends again. */
export const KEPT_HEADERS = ['content-type', 'location'] as const;

/** The statuses whose answer has no body (Fetch's null body statuses past 1xx): a replay sends none. */
export const BODILESS_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/** The statuses an answer is kept with: a final one, and never a 5xx (that key may be used again). */
export const KEPT_STATUS = { min: 200, max: 499 } as const;

/** The kept headers as a record, each value one a header can carry (visible ASCII, spaces and tabs). */
export const KeptHeaders = z.partialRecord(z.enum(KEPT_HEADERS), z.string().regex(/^[\t\x20-\x7e]*$/, 'must be a header value of visible ASCII'), {
  error: `must name only ${KEPT_HEADERS.join(' and ')}`,
});

/** A key's record as kept: while in flight it holds no answer; once done, the answer's status, headers and body. */
export interface KeptRecord {
  state: 'in_flight' | 'done';
  status: number | null;
  headers: unknown;
  body: string | null;
}

/** What is wrong with a key's record as a whole (which field, and why), or undefined: a replay needs the whole answer. */
export function keptRecordProblem(record: KeptRecord): { field: keyof KeptRecord; message: string } | undefined {
  const done = record.state === 'done';
  for (const field of ['status', 'headers', 'body'] as const) {
    if ((record[field] === null) === done)
      return { field, message: done ? 'must be set once the request is done' : 'must be null while the request is in flight' };
  }
  return undefined;
}

/** A request's fingerprint (its method, path and body): a SHA-256 in hexadecimal. */
export const Fingerprint = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in lower-case hexadecimal');
