/**
 * The signature protocol from the integrator's side (part of `card-sandbox/client`): sign a
 * request the way the API expects (RFC 9421 `ecdsa-p384-sha384` over "@method" "@authority" "@path" and, with a body,
 * "content-digest"; RFC 9530 `Content-Digest`; an `Idempotency-Key` on mutations) and verify a
 * webhook the sandbox sent (digest, then signature against the verification key). Cryptography is
 * node:crypto's.
 */
import { createPrivateKey, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { MUTATIONS } from '../domain/idempotency.js';
import { checkContentDigest, contentDigest } from '../signatures/digest.js';
import { ALGORITHM, parseSignature, parseSignatureInput, signatureBase, signMessage, verifyBase, type SignedMessage } from '../signatures/message.js';

export interface SignRequestOptions {
  method: string;
  /** The full URL the request goes to (its host and path are signed). */
  url: string | URL;
  /** A JSON-serialisable value, or the exact body text/bytes. */
  body?: unknown;
  /** The `signingKeyId` registered with PUT /v1/auth/signing. */
  keyId: string;
  /** The P-384 private key: a KeyObject or PEM text. */
  privateKey: KeyObject | string;
  /** Idempotency key for POST/PUT/PATCH/DELETE; a fresh UUID by default; `false` sends none. */
  idempotencyKey?: string | false;
  /** Signature creation time in UNIX seconds; now by default. */
  created?: number;
  /** Seconds the signature stays valid; no `expires` parameter by default. */
  expiresIn?: number;
  /** Headers to send as well (e.g. Authorization). */
  headers?: Record<string, string>;
}

export interface SignedRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/**
 * Returns `{ method, headers, body }` ready for `fetch(url, signRequest({...}))`: the body as sent,
 * its Content-Digest, an Idempotency-Key on a mutation, Signature-Input and Signature.
 *
 * @example
 * ```ts
 * import { signRequest } from 'card-sandbox/client';
 *
 * const url = 'http://127.0.0.1:4242/v1/customers';
 * const body = { chainId: 'eip155:11155111:0x…', externalId: 'alice' };
 * const res = await fetch(url, signRequest({ method: 'POST', url, body, keyId, privateKey, headers: { Authorization: `Bearer ${token}` } }));
 * ```
 */
export function signRequest(options: SignRequestOptions): SignedRequest {
  const url = new URL(options.url);
  const method = options.method.toUpperCase();
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Uint8Array | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' || options.body instanceof Uint8Array ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Digest'] = contentDigest(body, 'sha-512');
  }
  if (MUTATIONS.has(method) && options.idempotencyKey !== false) headers['Idempotency-Key'] = options.idempotencyKey ?? randomUUID();
  const privateKey = typeof options.privateKey === 'string' ? createPrivateKey(options.privateKey) : options.privateKey;
  const created = options.created ?? Math.floor(Date.now() / 1000);
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const message: SignedMessage = {
    method,
    authority: url.host,
    path: url.pathname,
    query: url.search.slice(1),
    scheme: url.protocol.slice(0, -1),
    header: (name) => lower[name],
  };
  const { signatureInput, signature } = signMessage(message, {
    keyId: options.keyId,
    privateKey,
    components: ['@method', '@authority', '@path', ...(body !== undefined ? ['content-digest'] : [])],
    created,
    expires: options.expiresIn === undefined ? undefined : created + options.expiresIn,
  });
  headers['Signature-Input'] = signatureInput;
  headers['Signature'] = signature;
  return { method, headers, body };
}

export interface VerifyWebhookOptions {
  /** The request method as received (POST). */
  method?: string;
  /** The path the sandbox posted to (e.g. `/hooks/card-sandbox`). */
  path: string;
  /** The received headers; names in any case. Must include Host. */
  headers: Record<string, string | string[] | undefined> | Headers;
  /** The raw body bytes exactly as received. */
  body: string | Uint8Array;
  /** The `key` from GET /v1/webhooks/verification-key (base64 of PEM), PEM text, or a KeyObject. */
  key: KeyObject | string;
  /** Refuse signatures whose `created` is older than this many seconds, or further ahead of `now` (default 300); 0 disables both. */
  maxAgeSeconds?: number;
  /** Current UNIX seconds, for tests. */
  now?: number;
}

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** The verification key as node:crypto takes it: a KeyObject, a PEM, or the base64 of a PEM as the API publishes it. */
export function publicKeyOf(key: KeyObject | string): KeyObject {
  if (typeof key !== 'string') return key;
  const pem = key.includes('-----BEGIN') ? key : Buffer.from(key, 'base64').toString('utf8');
  return createPublicKey(pem);
}

/**
 * Verifies a webhook: the Content-Digest against the raw body, then the RFC 9421 signature.
 * Returns the parsed event; throws WebhookVerificationError saying what failed.
 *
 * @example
 * ```ts
 * import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from 'card-sandbox/client';
 *
 * // key: GET /v1/webhooks/verification-key's `key`, fetched once
 * app.post('/hooks', express.raw({ type: 'application/json' }), (req, res) => {
 *   try {
 *     const event = verifyWebhook<WebhookEvent>({ path: req.path, headers: req.headers, body: req.body, key });
 *     console.log(event.webhookType, event.id);
 *     res.sendStatus(200);
 *   } catch (error) {
 *     res.status(error instanceof WebhookVerificationError ? 401 : 500).send(String(error));
 *   }
 * });
 * ```
 */
export function verifyWebhook<T = Record<string, unknown>>(options: VerifyWebhookOptions): T {
  const get = (name: string): string | undefined => {
    if (options.headers instanceof Headers) return options.headers.get(name) ?? undefined;
    const entry = Object.entries(options.headers).find(([k]) => k.toLowerCase() === name);
    const value = entry?.[1];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  const digestProblem = checkContentDigest(get('content-digest'), body);
  if (digestProblem) throw new WebhookVerificationError(digestProblem);
  const input = get('signature-input');
  const signature = get('signature');
  if (!input || !signature) throw new WebhookVerificationError('missing Signature-Input or Signature header');
  let params;
  let bytes;
  try {
    params = parseSignatureInput(input);
    bytes = parseSignature(signature, params.label);
  } catch (error) {
    throw new WebhookVerificationError((error as Error).message);
  }
  if (params.alg !== undefined && params.alg !== ALGORITHM) throw new WebhookVerificationError(`unexpected alg ${params.alg}`);
  for (const required of ['@method', '@authority', '@path', 'content-digest']) {
    if (!params.components.includes(required)) throw new WebhookVerificationError(`the signature does not cover "${required}"`);
  }
  const maxAge = options.maxAgeSeconds ?? 300;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (maxAge > 0 && (params.created === undefined || now - params.created > maxAge)) {
    throw new WebhookVerificationError(`the signature is older than ${maxAge} s (created ${params.created})`);
  }
  // A signature from the future is no fresher than an old one: a clock's skew is allowed, no more.
  if (maxAge > 0 && params.created! - now > maxAge) {
    throw new WebhookVerificationError(`the signature was created more than ${maxAge} s ahead of now (created ${params.created}, now ${now})`);
  }
  const host = get('host');
  if (!host) throw new WebhookVerificationError('missing Host header');
  const [path, query = ''] = options.path.split('?') as [string, string?];
  const base = signatureBase(
    { method: options.method ?? 'POST', authority: host, path, query, scheme: 'http', header: get },
    params.components,
    params.serialisedParams,
  );
  if (!verifyBase(base, bytes, publicKeyOf(options.key))) throw new WebhookVerificationError('the signature does not verify with the verification key');
  return JSON.parse(Buffer.from(body).toString('utf8')) as T;
}
