/**
 * Reads the raw body once, at most `maxBytes` (413 above), for digest checks and idempotency
 * fingerprints; routes parse JSON from the same bytes. A body that is not declared as JSON (or, for
 * a route that takes a file, as `application/octet-stream` too) is refused rather than silently
 * read as empty.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SandboxError } from '../../domain/errors.js';
import type { AppEnv } from '../env.js';
import { keepBodyText } from '../hono-seams.js';

const EMPTY = new Uint8Array(0);
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;
const OCTET_STREAM = /^application\/octet-stream$/i;

/** `file`: the body is a file, sent as its bytes (`application/octet-stream`) or as JSON. */
export function readBody(maxBytes: number, { file = false } = {}): MiddlewareHandler<AppEnv> {
  const tooLarge = (): never => {
    throw new SandboxError('payload_too_large', `the request body is larger than ${maxBytes / 1_048_576} MiB`);
  };
  const countBytes = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  // hono's bodyLimit reads `c.req.raw.body`, which makes @hono/node-server build a full Request
  // for every request. So it only counts bodies of unknown length (chunked); a declared
  // Content-Length is checked from the header, and GET and HEAD carry no body at all.
  // A request whose path matches more than one layer of the pipeline (`/_sandbox/*` itself) meets
  // these twice: a body already read was read within its limit, and is not read again.
  return (c, next) => {
    if (c.get('rawBody') !== undefined) return next();
    if (c.req.method === 'GET' || c.req.method === 'HEAD') {
      c.set('rawBody', EMPTY);
      return next();
    }
    const length = c.req.header('Content-Length');
    if (length === undefined || c.req.header('Transfer-Encoding') !== undefined) return countBytes(c, () => read(c, next, file));
    if (Number(length) > maxBytes) tooLarge();
    return read(c, next, file);
  };
}

/** The body's bytes, kept for the request and its routes; refused when it is not of a type the route takes. */
async function read(c: Context<AppEnv>, next: Next, file: boolean): Promise<void> {
  const body = new Uint8Array(await c.req.arrayBuffer());
  c.set('rawBody', body);
  keepBodyText(c, body);
  if (body.length > 0) {
    const type = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim();
    if (!JSON_TYPE.test(type) && !(file && OCTET_STREAM.test(type))) {
      const expected = file ? 'a file sent with Content-Type: application/octet-stream (or application/json)' : 'JSON sent with Content-Type: application/json';
      throw new SandboxError('invalid_request', `the body must be ${expected} (got ${type ? `"${type}"` : 'no Content-Type'})`);
    }
  }
  return next();
}
