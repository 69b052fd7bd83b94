/**
 * The one error funnel: every refusal becomes RFC 9457 `application/problem+json` with
 * `type, title, status, detail, code, requestId` (and `errors[]` for validation). Unknown
 * errors become a 500 whose detail never carries a stack trace.
 */
import type { Hook } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { SandboxError, type ErrorCode, type FieldError } from '../domain/errors.js';
import type { Problem } from '../wire/problem.js';
import { answer } from './answer.js';
import { requestIdOf, type AppEnv } from './env.js';
import type { Log } from '../kernel/log.js';
import type { Programmes } from '../programmes/index.js';
import { deletedMeanwhile } from './deleted-programme.js';

/** Each error code's HTTP status and title (the error names of the specification). */
export const PROBLEMS = {
  invalid_request: { status: 400, title: 'Invalid request' },
  invalid_signature: { status: 400, title: 'Invalid request' },
  invalid_content_digest: { status: 400, title: 'Invalid request' },
  missing_idempotency_key: { status: 400, title: 'Invalid request' },
  invalid_idempotency_key: { status: 400, title: 'Invalid request' },
  idempotency_key_reused: { status: 400, title: 'Invalid request' },
  invalid_signing_key: { status: 400, title: 'Invalid request' },
  last_credential: { status: 400, title: 'Invalid request' },
  unknown_credential: { status: 400, title: 'Invalid request' },
  unknown_signing_key: { status: 400, title: 'Invalid request' },
  unknown_webhook: { status: 400, title: 'Invalid request' },
  customer_not_active: { status: 400, title: 'Invalid request' },
  account_not_active: { status: 400, title: 'Invalid request' },
  card_not_active: { status: 400, title: 'Invalid request' },
  insufficient_funds: { status: 400, title: 'Invalid request' },
  card_limit_reached: { status: 400, title: 'Invalid request' },
  customer_not_pending: { status: 400, title: 'Invalid request' },
  card_not_issuing: { status: 400, title: 'Invalid request' },
  authorisation_not_pending: { status: 400, title: 'Invalid request' },
  physical_cards_unsupported: { status: 400, title: 'Invalid request' },
  invalid_challenge_signature: { status: 400, title: 'Invalid request' },
  challenge_expired: { status: 400, title: 'Invalid request' },
  invalid_snapshot: { status: 400, title: 'Invalid snapshot' },
  invalid_credentials: { status: 401, title: 'Invalid credentials' },
  not_authorised: { status: 401, title: 'Not authorised' },
  customer_not_found: { status: 404, title: 'Customer not found' },
  account_not_found: { status: 404, title: 'Account not found' },
  card_not_found: { status: 404, title: 'Card not found' },
  authorisation_not_found: { status: 404, title: 'Authorisation not found' },
  transaction_not_found: { status: 404, title: 'Transaction not found' },
  webhook_not_found: { status: 404, title: 'Webhook not found' },
  event_not_found: { status: 404, title: 'Event not found' },
  delivery_not_found: { status: 404, title: 'Delivery not found' },
  programme_not_found: { status: 404, title: 'Programme not found' },
  snapshot_not_found: { status: 404, title: 'Snapshot not found' },
  route_not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  host_not_allowed: { status: 403, title: 'Forbidden' },
  cross_site_request: { status: 403, title: 'Forbidden' },
  customer_already_exists: { status: 409, title: 'Customer already exists' },
  invalid_state_transition: { status: 409, title: 'Invalid state transition' },
  challenge_already_signed: { status: 409, title: 'Challenge already signed' },
  idempotency_in_flight: { status: 409, title: 'Idempotency conflict' },
  default_programme: { status: 409, title: 'Programme cannot be deleted' },
  snapshot_name_taken: { status: 409, title: 'Snapshot name taken' },
  payload_too_large: { status: 413, title: 'Invalid request' },
  snapshot_version_unsupported: { status: 422, title: 'Unsupported snapshot version' },
  programme_limit_reached: { status: 429, title: 'Too many programmes' },
  snapshot_limit_reached: { status: 429, title: 'Too many snapshots' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  bad_gateway: { status: 502, title: 'Bad gateway' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  gateway_timeout: { status: 504, title: 'Gateway timeout' },
} as const satisfies Record<ErrorCode, { status: number; title: string }>;

export const PROBLEM_TYPE_BASE = 'https://card-sandbox.dev/problems/';

export function problemBody(error: SandboxError, requestId: string): Problem {
  const { status, title } = PROBLEMS[error.code];
  const body: Problem = { type: `${PROBLEM_TYPE_BASE}${error.code.replaceAll('_', '-')}`, title, status, detail: error.detail, code: error.code, requestId };
  if (error.errors?.length) body.errors = error.errors;
  return body;
}

export function problemResponse(c: Context<AppEnv>, error: SandboxError): Response {
  const body = problemBody(error, requestIdOf(c));
  c.set('problem', { code: error.code, detail: error.detail });
  return answer(c, body, body.status as ContentfulStatusCode, { 'Content-Type': 'application/problem+json' });
}

/** Zod issues → one field error each, paths dotted (`billingAddress.city`). */
export function validationError(error: ZodError, where: string): SandboxError {
  return invalidFields(
    error.issues.map((issue) => ({ path: issue.path.length ? issue.path.map(String).join('.') : where, message: issue.message })),
    where,
  );
}

const TARGETS: Record<string, string> = { json: 'body', param: 'path parameters', query: 'query parameters', header: 'headers' };

/** What a route's validator does with input its schema refuses: a 400 naming each field, and where it was. */
export const defaultHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) throw validationError(result.error, TARGETS[result.target] ?? result.target);
};

/**
 * Runs an operation on the fields of a request's body: a refusal naming some of them (an
 * `invalid_request` with field errors, worded by the operation, which knows nothing of bodies) is
 * the body's, `invalid body: <detail>`, as a schema's refusal is. For operations that answer at once.
 */
export function onBody<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (error instanceof SandboxError && error.code === 'invalid_request' && error.errors?.length)
      throw new SandboxError(error.code, `invalid body: ${error.detail}`, error.errors);
    throw error;
  }
}

/** A 400 naming every field at fault, whether a schema or a rule beyond it found them. */
export function invalidFields(errors: FieldError[], where: string): SandboxError {
  const names = [...new Set(errors.map((e) => e.path))].join(', ');
  const detail = errors.length === 1 ? `invalid ${where}: ${names}: ${errors[0]!.message}` : `invalid ${where}: ${names}`;
  return new SandboxError('invalid_request', detail, errors);
}

/** A body read as JSON; a 400 saying where it stops being JSON (JSON.parse's own position) when it is not. */
export function readJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SandboxError('invalid_request', `the body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Why a body a route's validator could not read is not JSON; undefined when it is. */
function notJson(raw: Uint8Array | undefined): SandboxError | undefined {
  if (!raw?.length) return undefined;
  try {
    readJson(Buffer.from(raw).toString('utf8'));
    return undefined;
  } catch (error) {
    return error as SandboxError;
  }
}

/** `rawBody`: the request's body, to say where it stops being JSON when a route's validator could not read it. */
export function toSandboxError(error: unknown, log: Log, rawBody?: Uint8Array): SandboxError {
  if (error instanceof SandboxError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new SandboxError('payload_too_large', 'the request body is larger than 1 MiB');
    if (error.status < 500) return notJson(rawBody) ?? new SandboxError('invalid_request', error.message || 'invalid request');
  }
  // Node aborts the request stream when the client hangs up, or breaks the framing, before the
  // body is complete: the client's failure, not the sandbox's (and nobody is left to answer).
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'ECONNRESET')
    return new SandboxError('invalid_request', 'the request body ended early: the connection closed before it was complete');
  log.error('internal error', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return new SandboxError('internal_error', 'the sandbox failed to handle this request; the log has the details');
}

/** The one error handler, the app's and its pipelines' (pipeline.ts): what a request failed on, as its problem. */
export function errorFunnel(log: Log, programmes: Pick<Programmes, 'rowOf'>): (error: Error, c: Context<AppEnv>) => Response {
  return (error, c) => problemResponse(c, deletedMeanwhile(c, programmes) ?? toSandboxError(error, log, c.get('rawBody')));
}
