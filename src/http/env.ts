/** The Hono environment: what middleware hands to routes for one request. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ServerResponse } from 'node:http';
import type { JournalFault, JournalProblem, Verification } from '../programmes/journal.js';
import type { Programme } from '../programmes/index.js';

export interface AppEnv {
  /** What @hono/node-server passes along (absent when the app is called in-process, as tests do). */
  Bindings: { outgoing?: ServerResponse };
  Variables: {
    /** Drawn when first needed (requestIdOf), from the programme the request acts on by then. */
    requestId: string;
    /**
     * The programme the request acts on: the one its bearer token was issued for on /v1, the one
     * `?programme=` or `Sandbox-Programme` names on /_sandbox, else the default one (set first).
     */
    programme: Programme;
    /** The API key of the bearer token (set by the auth middleware on /v1). */
    apiKey: string;
    /** Raw request body bytes (empty when there is none). */
    rawBody: Uint8Array;
    /** Verification failures reported in warn mode. */
    warnings: string[];
    replayed: boolean;
    /** The problem the request was answered with (set by the error funnel), for the journal. */
    problem: JournalProblem | undefined;
    /** What request verification found when a check failed, for the journal. */
    verification: Verification | undefined;
    /** Request verification ran on the request, for the journal. */
    verified: boolean | undefined;
    /** The fault the API fault lab put on the request, for the journal. */
    fault: JournalFault | undefined;
    /** The answer's body, kept as it is made, for an idempotent replay (middleware/idempotency.ts). */
    answer: string | undefined;
  };
}

export type Api = OpenAPIHono<AppEnv>;

/** The request's path and query as sent (`/v1/customers?x=1`), without parsing the URL again. */
export function targetOf(c: Context<AppEnv>): string {
  const { url } = c.req;
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

/** The services of the programme the request acts on. */
export const servicesOf = (c: Context<AppEnv>) => c.get('programme').services;

/**
 * The request's id (the `Request-Id` header, `requestId` in problems, the journal): drawn the first
 * time it is needed from the stream of the programme the request acts on by then — by the end of
 * the request, or when it is refused — so that a seeded programme's ids repeat run after run
 * (docs/programmes.md: Deterministic runs). API and control-plane requests draw from separate streams.
 */
export function requestIdOf(c: Context<AppEnv>): string {
  let id = c.get('requestId');
  if (id === undefined) {
    const { requestIds } = c.get('programme');
    id = (c.req.path.startsWith('/v1/') ? requestIds.api : requestIds.control).uuid();
    c.set('requestId', id);
  }
  return id;
}
