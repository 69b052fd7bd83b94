/**
 * The two places the sandbox reaches past Hono's public API, kept here so that nothing else does,
 * each for a cost measured on the hot path (docs/benchmarks.md: Benchmarks), and each held by a test
 * (hono-seams.test.ts) that fails if Hono changes under it:
 *
 * - the body middleware has read the request's bytes once, for digests and idempotency; the
 *   routes' validators then call `c.req.json()`, which Hono makes from a cached text if there is
 *   one, else by reading the cached bytes again through a new Response and its streams. The text
 *   is handed to that cache.
 * - every JSON answer is made by one function (its text kept for an idempotent replay, a list the
 *   read cache hands out unchanged serialised once), which the zod-openapi routes reach through
 *   `c.json`, the only way their typed answers are made.
 *
 * Both replaced by Hono's public API, one interleaved run cost `POST /v1/customers` a quarter more
 * CPU per request (about 272 against 340 µs) and `GET /v1/cards` a sixth of its requests per
 * second (docs/benchmarks.md: Where the time goes).
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

const utf8 = new TextDecoder();

/** `c.req.json()` and `c.req.text()` answer from `body`, already read, without reading the request again. */
export function keepBodyText(c: Context, body: Uint8Array): void {
  (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(utf8.decode(body));
}

/** Every `c.json(value, status, headers)` of this request answers with `serialise(value)` as its body. */
export function answerJsonWith(c: Context, serialise: (value: unknown) => string): void {
  c.json = ((value: unknown, status?: ContentfulStatusCode, headers?: Record<string, string>) =>
    c.body(serialise(value), status, { 'Content-Type': 'application/json', ...headers })) as unknown as typeof c.json;
}
