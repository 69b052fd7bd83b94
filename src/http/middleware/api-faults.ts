/**
 * The API fault lab on /v1 (docs/api-faults.md: The API fault lab): after authentication has named the
 * programme, the fault its rules — or the request's own `Sandbox-Fault` header — put on the
 * request. `effect: "before"` answers in the request's place; `"after"` lets it run and commit
 * (its answer kept for an idempotent replay), then answers the fault instead. With no rules and no
 * header it costs one check.
 */
import type { Context } from 'hono';
import { setTimeout as sleep } from 'node:timers/promises';
import { iso } from '../../domain/instant.js';
import { outcomeOf, type ApiFaultOutcome } from '../../domain/api-fault-kinds.js';
import { parseFaultHeader, type ApiFault, type ApiFaultStatus } from '../../domain/api-faults.js';
import { latencyMs } from '../../domain/api-fault-matching.js';
import { faultView } from '../../wire/api-faults.js';
import { SandboxError, type ErrorCode } from '../../domain/errors.js';
import type { Env } from '../../config/index.js';
import { servicesOf, type AppEnv } from '../env.js';
import { problemResponse } from '../errors.js';
import type { Stage } from '../pipeline.js';

const CODES: Record<ApiFaultStatus, ErrorCode> = {
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
  429: 'rate_limited',
};
const INJECTED = 'injected by the API fault lab';

type Answer = (c: Context<AppEnv>, fault: ApiFault, where: string) => Response;

/** What the client gets for each outcome (domain/api-fault-kinds.ts), in the service's place. */
const ANSWERS: Record<ApiFaultOutcome, Answer> = {
  /** A problem, with Retry-After when it says when to come back. */
  status: (c, { status, retryAfterSeconds }, where) => {
    const detail =
      status === 429 ? `too many requests; retry after ${retryAfterSeconds} s (${INJECTED}, ${where})` : `the service could not answer (${INJECTED}, ${where})`;
    if (retryAfterSeconds !== undefined) c.header('Retry-After', String(retryAfterSeconds));
    return problemResponse(c, new SandboxError(CODES[status!], detail));
  },
  /** The connection closed without an answer. In-process (tests calling the app) there is none to close. */
  reset: (c, _fault, where) => {
    const outgoing = c.env?.outgoing;
    if (!outgoing)
      throw new SandboxError('internal_error', `the connection would be closed without an answer (${INJECTED}, ${where}); called in-process, there is none`);
    outgoing.socket?.destroy();
    return c.body(null, 204);
  },
  /** Refused as a token an hour old is: before the request does anything. */
  expireToken: (c, _fault, where) => {
    throw new SandboxError(
      'not_authorised',
      `the token expired at ${iso(c.get('programme').core.clock.now())} (sandbox time; ${INJECTED}, ${where}): get a new one from POST /v1/auth/token`,
    );
  },
};

export function apiFaults(env: Env, operationOf: (method: string, path: string) => string | undefined): Stage {
  const headerOf = (c: Context<AppEnv>) => (env === 'production' ? undefined : c.req.header('Sandbox-Fault'));
  const needed = (c: Context<AppEnv>) => headerOf(c) !== undefined || servicesOf(c).apiFaults.active();
  const run: Stage['run'] = async (c, next) => {
    const lab = servicesOf(c).apiFaults;
    const header = headerOf(c);
    let fault: ApiFault;
    let source: number | 'header';
    if (header !== undefined) {
      const parsed = parseFaultHeader(header);
      if ('errors' in parsed)
        throw new SandboxError(
          'invalid_request',
          `the Sandbox-Fault header is not a fault: ${parsed.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
          parsed.errors,
        );
      ({ fault } = parsed);
      source = 'header';
    } else {
      const { method, path } = c.req;
      const met = lab.meet({ method, path, operationId: operationOf(method, path) });
      if (met === undefined) return next();
      ({ fault, rule: source } = met);
    }
    c.set('fault', { ...faultView(fault), source });
    const where = source === 'header' ? 'the Sandbox-Fault header' : `rule ${source}`;
    if (fault.latency) await sleep(latencyMs(fault.latency, lab.draw));
    const outcome = outcomeOf(fault);
    if (fault.effect === 'after') await next();
    if (outcome === undefined) return fault.effect === 'before' ? next() : undefined;
    const answer = ANSWERS[outcome](c, fault, where);
    if (fault.effect === 'before') return answer;
    c.res = answer;
  };
  return { needed, run };
}
