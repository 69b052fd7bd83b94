/**
 * The one place the sandbox reaches past Hono's public API, kept here so that nothing else does,
 * for a cost measured on the hot path (docs/benchmarks.md: Where the time goes), and held by a test
 * (hono-seams.test.ts) that fails if Hono changes under it: the body middleware has read the
 * request's bytes once, for digests and idempotency; the routes' validators then call
 * `c.req.json()`, which Hono makes from a cached text if there is one, else by reading the cached
 * bytes again through a new Response and its streams. The text is handed to that cache. Without
 * it, one interleaved run (five pairs) cost `POST /v1/customers` 22 % more CPU per request (351
 * against 430 µs); zod-openapi's JSON validator has no public way to be given the parsed body.
 */
import type { Context } from 'hono';

const utf8 = new TextDecoder();

/**
 * `c.req.json()` and `c.req.text()` answer from `body`, already read, without reading the request
 * again. The text is decoded when first asked for: a route that takes a file reads its bytes and
 * never its text, which for a 40 MB snapshot file held the event loop 170–400 ms.
 */
export function keepBodyText(c: Context, body: Uint8Array): void {
  let text: Promise<string> | undefined;
  Object.defineProperty(c.req.bodyCache, 'text', { enumerable: true, configurable: true, get: () => (text ??= Promise.resolve(utf8.decode(body))) });
}
