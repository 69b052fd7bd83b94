/**
 * One webhook attempt: POST the event's stored body bytes, unchanged, to the callback URL with `Content-Digest` (RFC 9530 §2) and an RFC 9421 signature over
 * `@method`, `@authority`, `@path` and `content-digest` (`ecdsa-p384-sha384`, §3.3.5), plus `Sandbox-Event-Id`, `Sandbox-Delivery-Attempt` and, traced, the
 * attempt span's `traceparent` (docs/tracing.md: Tracing). Any 2xx response received in full within the timeout is a delivery; everything else is a failure
 * with its status code or error. Redirects are not followed. The receiver's Content-Type, the first 4 KiB of its answer and its Sandbox-Processed count are
 * kept (docs/webhooks.md: Webhooks). A forged attempt's body and signature are forgeries.ts'.
 */
import type { KeyObject } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { contentDigest } from '../signatures/digest.js';
import { signatureBase, signBaseOnPool, signatureInputFor, type SignedMessage } from '../signatures/message.js';
import { ATTEMPT_TIMEOUT_MS } from '../config/index.js';
import { version } from '../kernel/version.js';
import { callbackHostProblem } from '../domain/addresses.js';
import type { Forgery } from '../domain/webhook-faults.js';
import { forge } from './forgeries.js';
import { PROCESSED_HEADER, processedCount } from './processed.js';
import { connectFirst, guardedLookup, OPENED, targetOf, type Agents, type Opened, type Target } from './connections.js';

export { createAgents, type Agents } from './connections.js';

export const COVERED_COMPONENTS = ['@method', '@authority', '@path', 'content-digest'] as const;
const RESPONSE_BODY_BYTES = 4096; // how much of a receiver's answer is kept

export type WebhookSigner = { keyId: string; privateKey: KeyObject };

export interface Attempt {
  callbackUrl: string;
  body: Buffer;
  eventId: string;
  /** 1-based, sent as Sandbox-Delivery-Attempt. */
  attempt: number;
  signer: WebhookSigner;
  /** The signature's `created`: UNIX seconds of the real wall clock (RFC 9421 §2.3). */
  created: number;
  agents: Agents;
  timeoutMs?: number;
  /** Aborting cuts the attempt short (at shutdown): it fails at once and its socket is closed. */
  signal?: AbortSignal;
  /** Sign anew rather than reuse a signature made this second for the same message (a duplicate). */
  fresh?: boolean;
  /** Send it forged, as this kind of forgery (the delivery lab's forge, webhooks/forgeries.ts), which a receiver must refuse. */
  forged?: Forgery;
  /** Deliver to a link-local address too (--allow-link-local-callbacks); refused otherwise, named or resolved. */
  allowLinkLocal?: boolean;
  traceparent?: string | undefined;
}

/** What the receiver answered: its Content-Type and the first 4 KiB of its body, as UTF-8 text. */
export interface AttemptResponse {
  contentType?: string;
  body?: string;
}

export interface AttemptOutcome {
  statusCode?: number;
  error?: string;
  durationMs: number;
  response?: AttemptResponse;
  /** How many times the receiver said it has acted on the event (its Sandbox-Processed header), when it said. */
  processed?: number;
}

/**
 * What the attempts of one wall-clock second by one key share: the signature parameters
 * (`created`, `keyid`, `alg`), hence the `@signature-params` line and the Signature-Input header,
 * and the signatures already made, by signature base. Time travel sends a delivery's retries
 * moments apart, and the same base (same target, body digest, key and `created`) may carry the same
 * signature: any valid signature verifies. Replaced when the second or the key changes, so it
 * holds at most one second's worth.
 */
interface SigningSecond {
  created: number;
  keyId: string;
  params: string;
  input: string;
  signatures: Map<string, Promise<string>>;
}
let current: SigningSecond | undefined;

function signingSecond(created: number, keyId: string): SigningSecond {
  if (current?.created === created && current.keyId === keyId) return current;
  const { serialisedParams, signatureInput } = signatureInputFor(COVERED_COMPONENTS, { keyId, created });
  current = { created, keyId, params: serialisedParams, input: signatureInput, signatures: new Map() };
  return current;
}

/**
 * The signature last made for a body's bytes, with the second and target it was made for: a
 * delivery's retries (the same Buffer, the same target) find it without building the base again.
 */
const lastSigned = new WeakMap<Buffer, { second: SigningSecond; target: Target; signature: Promise<string> }>();

async function signatureHeaders(message: SignedMessage, signer: WebhookSigner, created: number, fresh: boolean | undefined, body: Buffer, target: Target) {
  const second = signingSecond(created, signer.keyId);
  const last = fresh ? undefined : lastSigned.get(body);
  let signature = last?.second === second && last.target === target ? last.signature : undefined;
  if (!signature) {
    const base = signatureBase(message, COVERED_COMPONENTS, second.params);
    signature = fresh ? undefined : second.signatures.get(base);
    if (!signature) {
      // The Signature dictionary's one member, a byte sequence (RFC 8941 §3.3.5): `sig=:base64:`.
      const made = signBaseOnPool(base, signer.privateKey).then((bytes) => `sig=:${bytes.toString('base64')}:`);
      if (!fresh) {
        second.signatures.set(base, made);
        // A failed signing is not kept: the next attempt signs again.
        made.catch(() => {
          second.signatures.delete(base);
          if (lastSigned.get(body)?.signature === made) lastSigned.delete(body);
        });
      }
      signature = made;
    }
    if (!fresh) lastSigned.set(body, { second, target, signature });
  }
  return { 'Signature-Input': second.input, Signature: await signature };
}

/**
 * Content-Digests by the body's bytes: a delivery's retries send the same Buffer (the dispatcher
 * keeps it with the delivery), so its digest is made once for them all, and only once a connection
 * is open (a refused attempt hashes nothing).
 */
const digests = new WeakMap<Buffer, string>();

function digestOfBody(body: Buffer): string {
  let digest = digests.get(body);
  if (digest === undefined) digests.set(body, (digest = contentDigest(body)));
  return digest;
}

/** The kept part of an answer: decoded up to the last whole character of its first 4 KiB. */
function responseOf(contentType: string | undefined, chunks: Buffer[]): AttemptResponse | undefined {
  const body = chunks.length ? new TextDecoder('utf-8').decode(Buffer.concat(chunks), { stream: true }) : '';
  if (contentType === undefined && body === '') return undefined;
  return { ...(contentType !== undefined && { contentType }), ...(body !== '' && { body }) };
}

/** What an attempt cut short records: at shutdown (or, recorded nowhere, when its world is replaced or deleted). */
export const CUT_SHORT = 'the sandbox shut down before the receiver answered';

/** What an attempt records when the receiver does not answer in time (or the delivery lab says it did not). */
export const noResponse = (timeoutMs: number) => `no response within ${timeoutMs / 1000} s`;

/** The body an attempt sends and its Signature-Input and Signature headers (none for an `unsigned` forgery). */
async function signed(attempt: Attempt, message: SignedMessage, target: Target): Promise<{ body: Buffer; signature: Record<string, string> }> {
  if (attempt.forged) return forge(attempt.forged, message, COVERED_COMPONENTS, attempt.body, attempt.signer, attempt.created);
  return { body: attempt.body, signature: await signatureHeaders(message, attempt.signer, attempt.created, attempt.fresh, attempt.body, target) };
}

/**
 * The request's headers, in this order on the wire, as node:http wrote them when they were set one
 * by one: credentials in the URL first, as Basic auth, then Host (so node:http adds none but `Connection`).
 */
function headerList(attempt: Attempt, target: Target, sent: Awaited<ReturnType<typeof signed>>): string[] {
  const { auth } = target.options;
  const headers = auth ? ['Authorization', `Basic ${Buffer.from(auth).toString('base64')}`] : [];
  headers.push(
    'Host',
    target.authority,
    'Content-Type',
    'application/json',
    'Content-Length',
    String(sent.body.length),
    'Content-Digest',
    digestOfBody(attempt.body),
  );
  for (const name in sent.signature) headers.push(name, sent.signature[name]!);
  headers.push('Sandbox-Event-Id', attempt.eventId, 'Sandbox-Delivery-Attempt', String(attempt.attempt), 'User-Agent', `card-sandbox/${version()}`);
  if (attempt.traceparent !== undefined) headers.push('traceparent', attempt.traceparent);
  return headers;
}

/**
 * Sends the attempt. A plain-HTTP one is signed once its connection is open, or at once when a
 * kept-alive one is there to reuse (an HTTPS one at once), and its request is then made whole, all
 * its headers given to node:http together and the body written with them: an attempt to a receiver
 * that refuses the connection costs no signature and no request. Its duration leaves the signing
 * out: it is the receiver's.
 */
export async function sendAttempt(attempt: Attempt): Promise<AttemptOutcome> {
  const target = targetOf(attempt.callbackUrl);
  // A link-local address written in the URL is never connected to (resolved ones, by guardedLookup).
  const refused = callbackHostProblem(target.options.hostname ?? '', attempt.allowLinkLocal === true);
  if (refused !== undefined) return { error: `the callback host ${refused}`, durationMs: 0 };
  const message: SignedMessage = {
    method: 'POST',
    // The Host header is exactly this, so what is signed is what is sent (RFC 9421 §2.2.3).
    authority: target.authority,
    path: target.path,
    query: target.query,
    scheme: target.scheme,
    header: (name) => (name === 'content-digest' ? digestOfBody(attempt.body) : undefined),
  };
  const timeoutMs = attempt.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const agent = target.secure ? attempt.agents.https : attempt.agents.http;
  const client = target.secure ? https : http;
  let started = performance.now();

  return new Promise<AttemptOutcome>((resolve, reject) => {
    let statusCode: number | undefined;
    let contentType: string | undefined;
    let processed: number | undefined;
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      attempt.signal?.removeEventListener('abort', cut);
      return true;
    };
    const finish = (error?: string) => {
      if (!settle()) return;
      const outcome: AttemptOutcome = { durationMs: Math.round(performance.now() - started) };
      if (statusCode !== undefined) outcome.statusCode = statusCode;
      if (error !== undefined) outcome.error = error;
      const response = statusCode === undefined ? undefined : responseOf(contentType, chunks);
      if (response) outcome.response = response;
      if (processed !== undefined) outcome.processed = processed;
      resolve(outcome);
    };
    const lookup = attempt.allowLinkLocal ? undefined : guardedLookup;
    const failed = (error: NodeJS.ErrnoException) => finish(error.message || error.code || 'request failed');
    let request: http.ClientRequest | undefined;
    // Until the request is made: the connection opened first is closed, or the wait for it ends.
    let giveUp: (() => void) | undefined;
    const destroy = () => (request ? request.destroy() : giveUp?.());
    const onResponse = (response: http.IncomingMessage) => {
      statusCode = response.statusCode;
      contentType = response.headers['content-type'];
      processed = processedCount(response.headers[PROCESSED_HEADER]);
      // Read to the end for the socket to be reused; only the first 4 KiB are kept.
      response.on('data', (chunk: Buffer) => {
        if (kept >= RESPONSE_BODY_BYTES) return;
        const part = chunk.subarray(0, RESPONSE_BODY_BYTES - kept);
        chunks.push(part);
        kept += part.length;
      });
      response.once('end', () => finish());
      response.once('error', (error) => finish(error.message));
    };
    const open = async (first?: Opened) => {
      const signing = performance.now();
      let sent: Awaited<ReturnType<typeof signed>>;
      try {
        sent = await signed(attempt, message, target);
      } catch (error) {
        if (settle()) reject(error as Error);
        first?.socket.destroy();
        return;
      }
      if (settled) return void first?.socket.destroy();
      started += performance.now() - signing;
      const options = { ...target.options, lookup, [OPENED]: first?.socket, method: 'POST', agent, headers: headerList(attempt, target, sent) };
      request = client.request(options, onResponse);
      giveUp = undefined;
      request.once('error', failed);
      // The agent reused an idle connection after all: the one opened first is not needed.
      if (first) request.once('socket', (socket) => socket !== first.socket && first.socket.destroy());
      request.end(sent.body);
    };
    const timer = setTimeout(() => {
      finish(statusCode === undefined ? noResponse(timeoutMs) : `response not finished within ${timeoutMs / 1000} s`);
      // Destroying (not just aborting) closes the socket, so a hanging receiver keeps none.
      destroy();
    }, timeoutMs);
    const cut = () => {
      finish(CUT_SHORT);
      destroy();
    };
    // Opened first, for a plain-HTTP receiver with no idle connection (connections.ts): refused or
    // unreachable, the attempt fails as node:http would have said, with no request made.
    giveUp = connectFirst(target, attempt.agents, attempt.allowLinkLocal === true, (first) => (settled ? first.socket.destroy() : void open(first)), failed);
    if (!giveUp) void open();
    if (attempt.signal?.aborted) cut();
    else attempt.signal?.addEventListener('abort', cut, { once: true });
  });
}
