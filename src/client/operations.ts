/**
 * What the API client and the control client share: how a call's arguments are placed in the
 * request, as the generated operation table says, and the error a refusal throws. Nothing here
 * needs Node: the inspector's page uses it too.
 */
import type { Problem } from './api.generated.js';

/** One row of a generated operation table. */
export interface Operation {
  method: string;
  path: string;
  params: readonly string[];
  body: boolean;
  query: boolean;
}

/** A refusal: the status and the RFC 9457 problem body the API answered with. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly operation: string,
    readonly method: string,
    readonly path: string,
    readonly status: number,
    /** The problem body; undefined when the answer was not `application/problem+json`. */
    readonly problem: Problem | undefined,
    /** The raw answer text. */
    readonly body: string,
  ) {
    super(`${operation}: ${method} ${path} answered ${status}${problem ? ` ${problem.code}: ${problem.detail}` : body ? `: ${body.slice(0, 300)}` : ''}`);
  }

  get code(): Problem['code'] | undefined {
    return this.problem?.code;
  }

  get requestId(): string | undefined {
    return this.problem?.requestId;
  }
}

/**
 * A path parameter as one path segment. `.`, `..` and an empty one are no segment at all: URLs
 * resolve them away (`/webhooks/./faults` is `/webhooks/faults`), which would turn an action on one
 * subscription into the programme's. They are refused before anything is sent.
 */
function segment(name: string, value: string): string {
  if (value === '' || value === '.' || value === '..') throw new TypeError(`${name} must be an id, got "${value}"`);
  return encodeURIComponent(value);
}

/** Splits a call's arguments into path parameters, body, query and options, as the operation table says. */
export function place(op: Operation, args: unknown[]) {
  const { params } = op;
  let path = op.path;
  params.forEach((name, i) => (path = path.replace(`{${name}}`, segment(name, String(args[i])))));
  let next = params.length;
  const body = op.body ? args[next++] : undefined;
  const query = op.query ? (args[next++] as Record<string, unknown> | undefined) : undefined;
  const options = args[next] ?? {};
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
  return { path: search.size > 0 ? `${path}?${search}` : path, body, options };
}

/** The RFC 9457 problem in an answer's text, or undefined when it is not one (the raw text stays on the error). */
export function problemOf(text: string): Problem | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<Problem>;
    return typeof parsed?.code === 'string' ? (parsed as Problem) : undefined;
  } catch {
    return undefined;
  }
}
