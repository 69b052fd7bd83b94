/**
 * One of the two services parity talks to, as an integrator's client would: a bearer token for its
 * API key and secret, every request outside /v1/auth signed (RFC 9421 with the RFC 9530 digest, by
 * `signRequest`, the same as the API client's) with an Idempotency-Key on writes, and each answer
 * kept as it came — status, content type, body — with when it came. It never throws for an answer;
 * a request that gets none is an answer with `none`.
 */
import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { MUTATIONS } from '../domain/idempotency.js';
import { signRequest } from '../client/sign.js';
import type { Answer } from './compare.js';

export interface SideOptions {
  /** Where the API is, with or without its trailing /v1. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The key requests are signed with, registered under `keyId`. */
  keyId: string;
  privateKey: KeyObject;
  /** How long one request may take before it counts as unanswered, ms. */
  requestTimeoutMs?: number;
  fetch?: typeof fetch;
}

export interface Request {
  method: string;
  /** The operation's path with its parameters, from /v1 on. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Send no Authorization header. */
  anonymous?: boolean;
  /** The Idempotency-Key of a write; a fresh one by default. */
  idempotencyKey?: string;
}

export interface Received extends Answer {
  /** The Idempotency-Key sent, for a write. */
  idempotencyKey?: string;
  /** How long the answer took, ms. */
  ms: number;
}

/** The side could not be used at all: its API does not answer, refuses the credentials, or redirects. */
export class CannotRun extends Error {}

/** How long a request may take before it counts as unanswered, by default (`--request-timeout`). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** The most of one answer parity reads: a larger one is cut off, and is an answer with `none`. */
export const MAX_ANSWER_BYTES = 8 * 1_048_576;

class TooLarge extends Error {}

/** The answer's body as text, read no further than MAX_ANSWER_BYTES. */
async function boundedText(res: Response): Promise<string> {
  if (Number(res.headers.get('Content-Length') ?? 0) > MAX_ANSWER_BYTES) {
    await res.body?.cancel();
    throw new TooLarge();
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of (res.body ?? []) as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    if (bytes > MAX_ANSWER_BYTES) throw new TooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const reasonOf = (error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};

export interface Side {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  /** Gets the token the requests carry; throws CannotRun when the service cannot be reached or refuses the credentials. */
  connect(): Promise<void>;
  send(request: Request): Promise<Received>;
  /** Registers the signing key (PUT /v1/auth/signing), for a key parity made. */
  registerKey(): Promise<void>;
  /** Removes the signing key parity registered (DELETE /v1/auth/signing). */
  removeKey(): Promise<Received>;
  /** From now on, requests in flight and to come end once `signal` aborts (the run stopping, its deadline). */
  stopOn(signal: AbortSignal | undefined): void;
}

export function createSide(options: SideOptions): Side {
  const base = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const send = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  let token: string | undefined;
  let stop: AbortSignal | undefined;
  const whyAborted = (timeout: AbortSignal) => (timeout.aborted ? `none within ${timeoutMs / 1000} s` : 'the run stopped');

  const request = async (req: Request): Promise<Received> => {
    const url = `${base}${req.path}${req.query ? `?${new URLSearchParams(req.query)}` : ''}`;
    const headers: Record<string, string> = {};
    if (!req.anonymous && token !== undefined) headers.Authorization = `Bearer ${token}`;
    const write = MUTATIONS.has(req.method);
    const idempotencyKey = write ? (req.idempotencyKey ?? randomUUID()) : undefined;
    let init: { method: string; headers: Record<string, string>; body?: string | Uint8Array };
    // /v1/auth/* takes neither signature, digest nor idempotency key (docs/signatures.md: Tokens and credentials).
    if (req.path.startsWith('/v1/auth/')) {
      if (req.body !== undefined) headers['Content-Type'] = 'application/json';
      init = { method: req.method, headers, ...(req.body !== undefined && { body: JSON.stringify(req.body) }) };
    } else {
      init = signRequest({
        method: req.method,
        url,
        body: req.body,
        keyId: options.keyId,
        privateKey: options.privateKey,
        headers,
        idempotencyKey: idempotencyKey ?? false,
      });
    }
    const started = performance.now();
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
    let res: Response;
    try {
      // Never followed: a redirect would carry the credentials, the token or a signed body to another host.
      res = await send(url, { ...init, signal, redirect: 'manual' } as RequestInit);
    } catch (error) {
      return {
        none: `no answer: ${signal.aborted ? whyAborted(timeout) : reasonOf(error)}`,
        ms: performance.now() - started,
        ...(idempotencyKey && { idempotencyKey }),
      };
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      throw new CannotRun(
        `${base} redirected ${req.method} ${req.path} (${res.status}${res.headers.has('Location') ? ` to ${res.headers.get('Location')}` : ''}); parity follows no redirect, so that your credentials go to no other host: give --upstream the URL it redirects to, if you trust it`,
      );
    }
    try {
      const text = await boundedText(res);
      const contentType = res.headers.get('Content-Type') ?? '';
      let body: unknown = text === '' ? undefined : text;
      if (text !== '' && /json/i.test(contentType)) {
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON after all: kept as text, which the comparison shows as such.
        }
      }
      return { status: res.status, contentType, body, ms: performance.now() - started, ...(idempotencyKey && { idempotencyKey }) };
    } catch (error) {
      const why =
        error instanceof TooLarge
          ? `an answer larger than ${MAX_ANSWER_BYTES / 1_048_576} MiB, not read`
          : signal.aborted
            ? whyAborted(timeout)
            : reasonOf(error);
      return { none: `no answer: ${why}`, ms: performance.now() - started, ...(idempotencyKey && { idempotencyKey }) };
    }
  };

  const refused = (what: string, answer: Received) =>
    new CannotRun(
      answer.none !== undefined
        ? `${what}: ${answer.none.replace(/^no answer: /, '')} at ${base}`
        : `${what}: ${base} answered ${answer.status}${typeof answer.body === 'object' && answer.body !== null && 'code' in answer.body ? ` ${String((answer.body as { code: unknown }).code)}` : ''}`,
    );

  return {
    baseUrl: base,
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    async connect() {
      const answer = await request({ method: 'POST', path: '/v1/auth/token', body: { apiKey: options.apiKey, apiSecret: options.apiSecret } });
      const got = (answer.body as { token?: unknown } | undefined)?.token;
      if (answer.status !== 200 || typeof got !== 'string') {
        throw refused(answer.status === 401 ? 'the API key and secret were refused' : 'no token', answer);
      }
      token = got;
    },
    send: request,
    async registerKey() {
      const pem = createPublicKey(options.privateKey).export({ type: 'spki', format: 'pem' }).toString();
      const answer = await request({
        method: 'PUT',
        path: '/v1/auth/signing',
        body: { signingKeyId: options.keyId, signingKey: Buffer.from(pem).toString('base64') },
      });
      if (answer.status === undefined || answer.status >= 300) throw refused('the signing key was not registered', answer);
    },
    removeKey: () => request({ method: 'DELETE', path: '/v1/auth/signing', body: { signingKeyId: options.keyId } }),
    stopOn(signal) {
      stop = signal;
    },
  };
}
