/**
 * How every JSON answer is made (docs/benchmarks.md: Where the time goes): serialised by one
 * function, which serialises and encodes a list the read cache hands out unchanged once until the
 * next write (its bytes are sent as they are), and its text kept for an idempotent replay
 * (middleware/idempotency.ts), so that nothing reads a response back. Routes answer with
 * `answer(c, value, status)` where Hono's would be `c.json(value, status)`, typed the same way, so
 * that zod-openapi checks the answer against the route's declared responses as it checks `c.json`.
 */
import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import { jsonOf } from '../store/read-cache.js';
import type { AppEnv } from './env.js';

/** `value` as the JSON answer, with `status` (200 unless given) and `headers` (`Content-Type: application/json` unless they name another). */
export function answer<T, S extends ContentfulStatusCode = ContentfulStatusCode>(
  c: Context<AppEnv>,
  value: T,
  status?: S,
  headers?: Record<string, string>,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const { text, bytes } = jsonOf(value);
  c.set('answer', text);
  return c.body(bytes ?? text, status, { 'Content-Type': 'application/json', ...headers }) as unknown as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}
