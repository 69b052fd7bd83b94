/**
 * Per-request context: a `Request-Id` on every response, the one-line request log, and the
 * journal entry for API requests — with the problem and the verification findings only when there
 * are any, so that a request that went well costs no more than before. The entry's real times and
 * a write's body digest are the go-live report's evidence (docs/go-live.md: Before you go live).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { createHash } from 'node:crypto';
import { MUTATIONS } from '../../domain/idempotency.js';
import type { Deps } from '../../deps.js';
import { faultNote } from '../../wire/fault-text.js';
import { iso } from '../../domain/instant.js';
import type { RequestLine } from '../../kernel/log.js';
import type { JournalEntry } from '../../programmes/journal.js';
import { requestIdOf, targetOf, type AppEnv } from '../env.js';
import type { ErrorAnswer } from '../pipeline.js';

/** Epoch milliseconds on the machine's clock, to the microsecond: performance's, which only moves forward. */
const realTime = (at: number) => Math.round((performance.timeOrigin + at) * 1000) / 1000;
const digestOf = (body: Uint8Array | undefined) =>
  `sha-256=:${createHash('sha256')
    .update(body ?? new Uint8Array())
    .digest('base64')}:`;

/**
 * `guard` runs first, before any route (the Host and same-site checks, a shadowed path's 405): an
 * answer it gives, or an error it throws (answered by `onError`), is the request's, logged and
 * journalled like any other. One layer of Hono's chain holds both (http/pipeline.ts says why).
 */
export function requestContext(deps: Deps, onError: ErrorAnswer, guard: (c: Context<AppEnv>) => Response | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    // Until a token, an API key or `?programme=` names another.
    c.set('programme', deps.programmes.default());
    c.set('warnings', []);
    c.set('replayed', false);
    let early: Response | undefined;
    try {
      early = guard(c);
    } catch (error) {
      c.error = error as Error;
      early = onError(error as Error, c);
    }
    if (early) c.res = early;
    else await next();
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
    if (path.startsWith('/v1/')) journal(c, line, realTime(started), realTime(answered));
  };
}

/**
 * The request's entry in the journal of its programme once the request named one (its token or API
 * key), else the default's. Its fields in one order, the optional ones only when there are any.
 */
function journal(c: Context<AppEnv>, line: RequestLine, received: number, answered: number): void {
  const { journal, core } = c.get('programme');
  const entry: JournalEntry = {
    requestId: line.requestId,
    time: iso(core.clock.now()),
    method: line.method,
    path: line.path,
    status: line.status,
    durationMs: line.ms,
    warnings: line.warnings,
    replayed: line.replayed,
  };
  const problem = c.get('problem');
  if (problem) entry.problem = problem;
  const verification = c.get('verification');
  if (verification) entry.verification = verification;
  const fault = c.get('fault');
  if (fault) entry.fault = fault;
  const idempotencyKey = c.req.header('Idempotency-Key');
  if (idempotencyKey !== undefined) entry.idempotencyKey = idempotencyKey;
  entry.real = { received, answered };
  // Writes to the API only: /v1/auth's bodies hold credentials and keys, and the report pairs none of them.
  if (MUTATIONS.has(line.method) && !line.path.startsWith('/v1/auth/')) entry.bodyDigest = digestOf(c.get('rawBody'));
  if (c.get('verified')) entry.verified = true;
  journal.add(entry);
}
