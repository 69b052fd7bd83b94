/**
 * The control client: every route of the control plane (/_sandbox, GET /_sandbox/openapi.json) as a
 * typed method, generated from that document (control.generated.ts), with the admin token and the
 * programme sent on each call. The CLI, the test companion and the inspector all speak to the
 * control plane through it. Refusals throw ApiError with the problem; a sandbox that does not
 * answer, UnreachableError. Streams (Server-Sent Events, WHATWG HTML §9.2) are followed message by
 * message. Nothing here needs Node.
 */
import { sseParser, type SseMessage } from '../kernel/sse.js';
import { OPERATIONS, type Operations } from './control.generated.js';
import { ApiError, place, problemOf } from './operations.js';

export type { SseMessage };
export type ControlOperation = keyof Operations;
type Streams = { [K in ControlOperation]: (typeof OPERATIONS)[K] extends { stream: true } ? K : never }[ControlOperation];
type Calls = Exclude<ControlOperation, Streams>;

/** A setting given once, or read again on every call (the inspector's token and programme change). */
type Setting = string | undefined | (() => string | undefined);

export interface ControlClientOptions {
  /** Where the sandbox is: `http://127.0.0.1:4242`; '' for the page's own origin. */
  baseUrl: string;
  /** The `--admin-token` the sandbox was started with, if any. */
  adminToken?: Setting;
  /** The programme the calls act on (`Sandbox-Programme`); the default one otherwise. */
  programme?: Setting;
  /** The fetch to send requests with (globalThis.fetch by default). */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
}

export interface ControlCallOptions {
  /** Act on this programme rather than the client's. */
  programme?: string;
  signal?: AbortSignal;
}

export interface FollowOptions extends ControlCallOptions {
  onMessage: (message: SseMessage) => void;
  /** Once the sandbox has accepted the stream. */
  onOpen?: () => void;
}

/** Nothing answered at the URL. */
export class UnreachableError extends Error {
  override name = 'UnreachableError';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`no sandbox reachable at ${url} (${reason}) — start one with \`card-sandbox start\``);
  }
}

export type ControlClient = {
  [K in Calls]: (...args: [...Operations[K]['args'], options?: ControlCallOptions]) => Promise<Operations[K]['result']>;
} & {
  readonly url: string;
  /** Follows a stream until the sandbox ends it or `signal` aborts; each message to `onMessage`. */
  follow<K extends Streams>(name: K, ...args: [...Operations[K]['args'], options: FollowOptions]): Promise<void>;
  /** Sends the request and hands back the answer, for a caller that reads the body itself (a stream, a file as it is). */
  open<K extends ControlOperation>(name: K, ...args: [...Operations[K]['args'], options?: ControlCallOptions]): Promise<Response>;
};

const valueOf = (setting: Setting) => (typeof setting === 'function' ? setting() : setting);

/** Why a fetch got no answer: the system's error code (ECONNREFUSED…) or message. */
export const reasonOf = (error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};

export function createControlClient(options: ControlClientOptions): ControlClient {
  const url = options.baseUrl.replace(/\/+$/, '');
  const send = options.fetch ?? ((input: string, init?: RequestInit) => globalThis.fetch(input, init));

  const request = async (name: ControlOperation, args: unknown[]): Promise<Response> => {
    const op = OPERATIONS[name];
    const placed = place(op, args);
    const call = placed.options as ControlCallOptions;
    const token = valueOf(options.adminToken);
    const programme = call.programme ?? valueOf(options.programme);
    const headers: Record<string, string> = {
      ...(token && { Authorization: `Bearer ${token}` }),
      ...(programme && { 'Sandbox-Programme': programme }),
      ...(placed.body !== undefined && { 'Content-Type': placed.body instanceof Uint8Array ? 'application/octet-stream' : 'application/json' }),
    };
    let res: Response;
    try {
      res = await send(`${url}${placed.path}`, {
        method: op.method,
        headers,
        body:
          placed.body === undefined || placed.body instanceof Uint8Array ? (placed.body as Uint8Array<ArrayBuffer> | undefined) : JSON.stringify(placed.body),
        signal: call.signal,
      });
    } catch (error) {
      if (call.signal?.aborted) throw error;
      throw new UnreachableError(url || 'this page', reasonOf(error));
    }
    if (!res.ok) {
      const text = await res.text();
      throw new ApiError(name, op.method, placed.path, res.status, /json/.test(res.headers.get('Content-Type') ?? '') ? problemOf(text) : undefined, text);
    }
    return res;
  };

  const follow = async (name: Streams, ...args: unknown[]): Promise<void> => {
    const { onMessage, onOpen, signal } = args.at(-1) as FollowOptions;
    const res = await request(name, args);
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
    }
  };

  const client: Record<string, unknown> = { url, follow, open: (name: ControlOperation, ...args: unknown[]) => request(name, args) };
  for (const name of Object.keys(OPERATIONS) as ControlOperation[]) {
    if (!('stream' in OPERATIONS[name]))
      client[name] = async (...args: unknown[]) => {
        const text = await (await request(name, args)).text();
        return text === '' ? undefined : JSON.parse(text);
      };
  }
  return client as ControlClient;
}
