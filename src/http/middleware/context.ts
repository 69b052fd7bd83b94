/**
 * Per-request context: a `Request-Id` on every response, the one-line request log, and the
 * journal entry for API requests — with the problem and the verification findings only when there
 * are any, so that a request that went well costs no more than before. The entry's real times and
 * a write's body digest are the go-live report's evidence (docs/go-live.md: Before you go live).
 */
import type { MiddlewareHandler } from 'hono';
import { createHash } from 'node:crypto';
import { MUTATIONS } from '../../domain/idempotency.js';
import type { Deps } from '../../deps.js';
import { faultNote } from '../../wire/fault-text.js';
import { iso } from '../../domain/instant.js';
import { requestIdOf, targetOf, type AppEnv } from '../env.js';

/** Epoch milliseconds on the machine's clock, to the microsecond: performance's, which only moves forward. */
const realTime = (at: number) => Math.round((performance.timeOrigin + at) * 1000) / 1000;
const digestOf = (body: Uint8Array | undefined) =>
  `sha-256=:${createHash('sha256')
    .update(body ?? new Uint8Array())
    .digest('base64')}:`;

export function requestContext(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    // Until a token, an API key or `?programme=` names another.
    c.set('programme', deps.programmes.default());
    c.set('warnings', []);
    c.set('replayed', false);
    await next();
    const requestId = requestIdOf(c);
    // On the server the header goes on the outgoing message, which the answer's own headers are
    // written with: reading c.res.headers would make @hono/node-server give up its fast path for
    // the finished response, which costs more than the rest of a GET (docs/benchmarks.md: Benchmarks).
    const outgoing = c.env?.outgoing;
    if (outgoing) outgoing.setHeader('Request-Id', requestId);
    else c.res.headers.set('Request-Id', requestId);
    const path = targetOf(c);
    const fault = c.get('fault');
    const answered = performance.now();
    const line = {
      method: c.req.method,
      path,
      // A connection the API fault lab closed got no answer at all.
      status: fault?.reset ? 0 : c.res.status,
      ms: Math.round((answered - started) * 10) / 10,
      requestId,
      warnings: c.get('warnings'),
      replayed: c.get('replayed'),
      fault,
      faultText: fault && faultNote(fault),
    };
    deps.log.request(line);
    if (path.startsWith('/v1/')) {
      // The programme's journal once the request named one (its token or API key); else the default's.
      const { journal, core } = c.get('programme');
      const problem = c.get('problem');
      const verification = c.get('verification');
      const idempotencyKey = c.req.header('Idempotency-Key');
      journal.add({
        requestId,
        time: iso(core.clock.now()),
        method: line.method,
        path: line.path,
        status: line.status,
        durationMs: line.ms,
        warnings: line.warnings,
        replayed: line.replayed,
        ...(problem && { problem }),
        ...(verification && { verification }),
        ...(fault && { fault }),
        ...(idempotencyKey !== undefined && { idempotencyKey }),
        real: { received: realTime(started), answered: realTime(answered) },
        // Writes to the API only: /v1/auth's bodies hold credentials and keys, and the report pairs none of them.
        ...(MUTATIONS.has(line.method) && !path.startsWith('/v1/auth/') && { bodyDigest: digestOf(c.get('rawBody')) }),
        ...(c.get('verified') && { verified: true as const }),
      });
    }
  };
}
