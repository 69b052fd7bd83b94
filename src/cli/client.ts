/**
 * The CLI's HTTP client to a running sandbox's control plane (/_sandbox). It knows where the
 * sandbox is (`--url`, `CARD_SANDBOX_URL`, the port, default http://127.0.0.1:4242), sends the optional
 * admin token, turns refusals into `RefusedError` (the RFC 9457 problem) and a missing sandbox into
 * `UnreachableError`, and follows the Server-Sent Events stream (WHATWG HTML §9.2.6).
 */
import { sseParser, type SseMessage } from '../sse.js';
import type { Problem as SandboxProblem } from '../wire/problem.js';
import type { Io } from './io.js';
import { runningSandboxes, type RunFile } from './run-files.js';

export type { SseMessage };

export const DEFAULT_URL = 'http://127.0.0.1:4242';

/** What the sandbox refused with, or, from something that is not a sandbox, its status described the same way. */
export type Problem = Pick<SandboxProblem, 'title' | 'status'> & Partial<SandboxProblem>;

/** The sandbox answered with an error. */
export class RefusedError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
  }
}

/** Nothing answered at the URL. */
export class UnreachableError extends Error {
  constructor(readonly url: string, reason: string) {
    super(`no sandbox reachable at ${url} (${reason}) — start one with \`card-sandbox start\``);
  }
}

/** A bad --url. */
export class ClientUsageError extends Error {}

export interface ClientOptions {
  url?: string | undefined;
  /** The port `start` was given: the sandbox on this machine at that port. */
  port?: string | undefined;
  adminToken?: string | undefined;
  /** The programme the commands act on (README: Parallel test suites); the default one otherwise. */
  programme?: string | undefined;
}

export interface ResolvedClientOptions {
  url: string;
  adminToken?: string;
  programme?: string;
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** The sandbox on this machine listening on `raw` (a port as `start` takes it), or undefined for port 0. */
function urlOfPort(raw: string, source: string, env: Record<string, string | undefined>): string | undefined {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ClientUsageError(`${source} must be a port from 1 to 65535, got "${raw}"`);
  if (Number(raw) === 0) return undefined;
  const host = env.CARD_SANDBOX_HOST && !WILDCARDS.has(env.CARD_SANDBOX_HOST) ? env.CARD_SANDBOX_HOST : '127.0.0.1';
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${raw}`;
}

/** The one sandbox running on this machine, by the files `start` keeps; the default when none or several are. */
function discovered(running: () => RunFile[]): string {
  const found = running();
  if (found.length === 1) return found[0]!.url;
  if (found.length > 1 && !found.some((r) => r.url === DEFAULT_URL)) {
    throw new ClientUsageError(`${found.length} sandboxes are running (${found.map((r) => r.url).join(', ')}): say which with --url`);
  }
  return DEFAULT_URL;
}

/**
 * Where the sandbox is: `--url`, else `--port`, else CARD_SANDBOX_URL, else CARD_SANDBOX_PORT (the
 * variables `start` reads too), else the one sandbox running on this machine, else the default. A
 * URL pointing at /v1 or /_sandbox is trimmed to its base.
 */
export function resolveClientOptions(options: ClientOptions, env: Record<string, string | undefined>, running: () => RunFile[] = runningSandboxes): ResolvedClientOptions {
  const raw =
    options.url ??
    (options.port !== undefined ? urlOfPort(options.port, '--port', env) : undefined) ??
    (env.CARD_SANDBOX_URL || undefined) ??
    (env.CARD_SANDBOX_PORT ? urlOfPort(env.CARD_SANDBOX_PORT, 'CARD_SANDBOX_PORT', env) : undefined) ??
    discovered(running);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ClientUsageError(`--url must be an http(s) URL such as ${DEFAULT_URL}, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ClientUsageError(`--url must be an http(s) URL, got "${raw}"`);
  const url = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '').replace(/\/(v1|_sandbox)$/, '')}`;
  const adminToken = options.adminToken ?? (env.CARD_SANDBOX_ADMIN_TOKEN || undefined);
  const programme = options.programme ?? (env.CARD_SANDBOX_PROGRAMME || undefined);
  return { url, ...(adminToken && { adminToken }), ...(programme && { programme }) };
}

const reasonOf = (error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};

async function problemOf(res: Response): Promise<Problem> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as Problem;
    if (typeof body.title === 'string') return body;
  } catch {
    // Not a sandbox answer: describe it by its status below.
  }
  return { title: `HTTP ${res.status} ${res.statusText}`.trim(), status: res.status, detail: text.slice(0, 200) || 'the server answered without a problem body; is this a card-sandbox URL?' };
}

export function createClient(options: ResolvedClientOptions, fetchImpl: Fetch = fetch) {
  const { url } = options;

  const send = async (method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> => {
    const headers: Record<string, string> = {};
    if (options.adminToken) headers.Authorization = `Bearer ${options.adminToken}`;
    if (options.programme) headers['Sandbox-Programme'] = options.programme;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetchImpl(`${url}/_sandbox${path}`, { method, headers, body: body === undefined || body instanceof Uint8Array ? body : JSON.stringify(body), signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new UnreachableError(url, reasonOf(error));
    }
    if (!res.ok) throw new RefusedError(await problemOf(res));
    return res;
  };

  return {
    url,

    /** Sends one request (a JSON body, or bytes sent as they are); resolves to the parsed JSON answer, or undefined when there is no body. */
    async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T | undefined> {
      const res = await send(method, path, body);
      const text = await res.text();
      return text ? (JSON.parse(text) as T) : undefined;
    },

    /** Reads an answer's text as it came (a snapshot file). */
    async text(path: string): Promise<string> {
      return (await send('GET', path)).text();
    },

    /**
     * Follows an SSE stream, calling `onMessage` for each message, until the server ends or drops
     * it or `signal` aborts; `onOpen` runs once the sandbox has accepted the stream.
     */
    async stream(path: string, onMessage: (message: SseMessage) => void, signal?: AbortSignal, onOpen?: () => void): Promise<void> {
      const res = await send('GET', path, undefined, signal);
      onOpen?.();
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      // Hanging up cancels the read in flight, whatever the fetch implementation does with `signal`.
      signal?.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
      const feed = sseParser(onMessage);
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          feed(value);
        }
      } catch {
        // Aborted by the caller, or the connection dropped because the sandbox stopped: either way the stream is over.
        return;
      }
    },
  };
}

export type Client = ReturnType<typeof createClient>;

/** What every client command receives. */
export interface CommandContext {
  client: Client;
  io: Io;
  /** Machine output: the control plane's JSON on stdout, nothing else. */
  json: boolean;
}
