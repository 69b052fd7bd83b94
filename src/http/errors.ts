/**
 * The one error funnel: every refusal becomes RFC 9457 `application/problem+json` with
 * `type, title, status, detail, code, requestId` (and `errors[]` for validation). Unknown
 * errors become a 500 whose detail never carries a stack trace.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import { ERRORS, SandboxError, type ErrorCode, type FieldError } from '../domain/errors.js';
import type { AppEnv } from './env.js';
import type { Log } from '../log.js';

export const PROBLEM_TYPE_BASE = 'https://card-sandbox.dev/problems/';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  requestId: string;
  errors?: FieldError[];
}

export function problemBody(error: SandboxError, requestId: string): Problem {
  const { status, title } = ERRORS[error.code];
  const body: Problem = { type: `${PROBLEM_TYPE_BASE}${error.code.replaceAll('_', '-')}`, title, status, detail: error.detail, code: error.code, requestId };
  if (error.errors?.length) body.errors = error.errors;
  return body;
}

export function problemResponse(c: Context<AppEnv>, error: SandboxError): Response {
  const body = problemBody(error, c.get('requestId') ?? '');
  return c.body(JSON.stringify(body), body.status as 400, { 'Content-Type': 'application/problem+json' });
}

/** Zod issues → one field error each, paths dotted (`billingAddress.city`). */
export function validationError(error: ZodError, where: string): SandboxError {
  const errors = error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : where,
    message: issue.message,
  }));
  const names = [...new Set(errors.map((e) => e.path))].join(', ');
  const detail = errors.length === 1 ? `invalid ${where}: ${names}: ${errors[0]!.message}` : `invalid ${where}: ${names}`;
  return new SandboxError('invalid_request', detail, errors);
}

export function toSandboxError(error: unknown, log: Log): SandboxError {
  if (error instanceof SandboxError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new SandboxError('payload_too_large', 'the request body is larger than 1 MiB');
    if (error.status < 500) return new SandboxError('invalid_request', error.message || 'invalid request');
  }
  // Node aborts the request stream when the client hangs up, or breaks the framing, before the
  // body is complete: the client's failure, not the sandbox's (and nobody is left to answer).
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'ECONNRESET') return new SandboxError('invalid_request', 'the request body ended early: the connection closed before it was complete');
  log.error('internal error', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return new SandboxError('internal_error', 'the sandbox failed to handle this request; the log has the details');
}
