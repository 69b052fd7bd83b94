/**
 * The page's client of the control plane (docs/inspector.md: The inspector): every call goes to /_sandbox with
 * the admin token when one was given and the programme shown, like the CLI's. Streams are read with
 * fetch rather than EventSource, which cannot send the token. A 401 makes the page ask for the
 * token, which it keeps for this tab only.
 */
import { sseParser, type SseMessage } from '../src/sse.js';
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

/** The control plane refused: its RFC 9457 problem, or what the page could tell without one. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem> & { title: string },
  ) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
  }
}

function headersFor(programme: string, body: boolean): Record<string, string> {
  return {
    ...(adminToken.value && { Authorization: `Bearer ${adminToken.value}` }),
    'Sandbox-Programme': programme,
    ...(body && { 'Content-Type': 'application/json' }),
  };
}

async function refusal(res: Response): Promise<ProblemError> {
  if (res.status === 401) tokenNeeded.set(true);
  const text = await res.text();
  try {
    const problem = JSON.parse(text) as Problem;
    if (typeof problem.title === 'string') return new ProblemError(res.status, problem);
  } catch {
    // Not a problem body: described by its status below.
  }
  return new ProblemError(res.status, { title: `HTTP ${res.status}`, detail: text.slice(0, 200) });
}

async function send(method: string, path: string, body?: unknown, signal?: AbortSignal, programme = programmeOf()): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`/_sandbox${path}`, { method, headers: headersFor(programme, body !== undefined), body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ProblemError(0, { title: 'The sandbox is not reachable', detail: 'is `card-sandbox start` still running?' });
  }
  if (!res.ok) throw await refusal(res);
  return res;
}

/** One call; the parsed JSON answer, or undefined for an empty one. */
export async function call<T>(method: string, path: string, body?: unknown, programme?: string): Promise<T> {
  const text = await (await send(method, path, body, undefined, programme)).text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Follows a Server-Sent Events stream until it ends or `signal` aborts; `onOpen` once it is accepted. */
export async function follow(path: string, programme: string, onMessage: (message: SseMessage) => void, signal: AbortSignal, onOpen: () => void): Promise<void> {
  const res = await send('GET', path, undefined, signal, programme);
  onOpen();
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
  const feed = sseParser(onMessage);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    feed(value);
  }
}
