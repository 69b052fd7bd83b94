/**
 * The page's client of the control plane (docs/inspector.md: The inspector): the control client
 * (src/client/control.ts) on the page's own origin, with the admin token when one was given and
 * the programme shown. Streams are read with fetch rather than EventSource, which cannot send the
 * token. A 401 makes the page ask for the token, which it keeps for this tab only.
 */
import { createControlClient, UnreachableError } from '../src/client/control.js';
import { ApiError } from '../src/client/operations.js';
import type { Problem } from './api-types.js';
import { programmeOf } from './route.js';
import { signal } from './state.js';

const TOKEN_KEY = 'card-sandbox.admin-token';

/** The admin token given in this tab, if any. */
export const adminToken = signal<string | undefined>(sessionStorage.getItem(TOKEN_KEY) ?? undefined);
/** Set when the control plane refused the page for want of the admin token. */
export const tokenNeeded = signal(false);

export function setAdminToken(token: string | undefined): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
  adminToken.set(token);
  tokenNeeded.set(false);
}

export const control = createControlClient({
  baseUrl: '',
  adminToken: () => adminToken.value,
  programme: () => programmeOf(),
  fetch: async (input, init) => {
    // The client reads the token just before it sends; a refusal of a token since replaced asks for nothing.
    const sent = adminToken.value;
    const res = await fetch(input, init);
    if (res.status === 401 && adminToken.value === sent) tokenNeeded.set(true);
    return res;
  },
});

/** Whether the control plane refused for want of the admin token. */
export const unauthorised = (error: unknown): boolean => error instanceof ApiError && error.status === 401;

/** What a failure says: the control plane's problem, or what the page can tell without one. */
export function problemOf(error: unknown): Partial<Problem> & { title: string } {
  if (error instanceof ApiError) return error.problem ?? { title: `HTTP ${error.status}`, detail: error.body.slice(0, 200) };
  if (error instanceof UnreachableError) return { title: 'The sandbox is not reachable', detail: 'is `card-sandbox start` still running?' };
  return { title: 'Something went wrong', detail: String(error) };
}
