/**
 * `createClient` (docs/companion.md: The API client): every operation of the API as a typed method, with
 * the plumbing each request needs — a bearer token fetched on first use and fetched again when the
 * API says it expired or was revoked, a P-384 signing key generated and registered unless one is
 * given, an RFC 9421 signature with the RFC 9530 Content-Digest on every request, and an
 * Idempotency-Key on every mutation. Refusals throw ApiError carrying the problem body. Types and
 * the operation table are generated from the sandbox's own /openapi.json (api.generated.ts).
 * Nothing here is particular to the sandbox: the same client talks to the hosted service.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { MUTATIONS } from '../domain/idempotency.js';
import { OPERATIONS, type Operations, type Problem } from './api.generated.js';
import { ApiError, place, problemOf } from './operations.js';
import { signRequest } from './sign.js';

export type OperationName = keyof Operations;
/** The arguments of an operation: its path parameters in path order, then its body, then its query. */
export type ArgsOf<K extends OperationName> = Operations[K]['args'];
/** What an operation resolves to (`void` for 202 and 204 answers). */
export type ResultOf<K extends OperationName> = Operations[K]['result'];
export type ProblemCode = Problem['code'];
export { ApiError, problemOf };

export interface CallOptions {
  /** The Idempotency-Key of a mutation; a fresh UUID by default. */
  idempotencyKey?: string;
  /** Headers to send as well. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface SigningKey {
  /** The `signingKeyId` it is registered under. */
  keyId: string;
  /** The P-384 private key: a KeyObject or PEM text. */
  privateKey: KeyObject | string;
}

export interface ClientOptions {
  /** Where the API is: `http://127.0.0.1:4242` (a trailing `/v1` is accepted). */
  baseUrl: string | URL;
  apiKey: string;
  apiSecret: string;
  /** A key already registered with PUT /v1/auth/signing; without it, one is made and registered on first use. */
  signingKey?: SigningKey;
  /** The fetch to send requests with (globalThis.fetch by default). */
  fetch?: typeof fetch;
}

export type ApiClient = {
  [K in OperationName]: (...args: [...ArgsOf<K>, options?: CallOptions]) => Promise<ResultOf<K>>;
} & {
  /** The `signingKeyId` requests are signed with. */
  readonly keyId: string;
  /** A valid bearer token (fetched when there is none yet). */
  token(): Promise<string>;
};

/**
 * The API client: a typed method per operation of /openapi.json, each request authenticated,
 * RFC 9421-signed and, when it changes something, sent with an Idempotency-Key. Without
 * `signingKey` it makes a P-384 key and registers it on first use. Refusals throw ApiError.
 *
 * @example
 * ```ts
 * import { createClient } from 'card-sandbox/client';
 *
 * const client = createClient({
 *   baseUrl: 'http://127.0.0.1:4242',
 *   apiKey: '11111111-1111-4111-8111-111111111111',
 *   apiSecret: 'sandbox-secret',
 * });
 * const customer = await client.createCustomer({ chainId: 'eip155:11155111:0x…', externalId: 'alice' });
 * const same = await client.getCustomer(customer.id);
 * ```
 */
export function createClient(options: ClientOptions): ApiClient {
  const base = String(options.baseUrl).replace(/\/+$/, '').replace(/\/v1$/, '');
  const send = options.fetch ?? globalThis.fetch;
  const generated = options.signingKey === undefined;
  const signer = options.signingKey ?? { keyId: randomUUID(), privateKey: generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey };
  // A PEM is read once, not on every request it signs.
  const privateKey = typeof signer.privateKey === 'string' ? createPrivateKey(signer.privateKey) : signer.privateKey;
  let token: Promise<string> | undefined;
  let registration: Promise<void> | undefined;

  /** Sends one request; resolves with the answer's status and text. */
  const request = async (name: OperationName, args: unknown[], auth: string | undefined) => {
    const op = OPERATIONS[name];
    const { path, body, options } = place(op, args);
    const call = options as CallOptions;
    const url = `${base}${path}`;
    const headers: Record<string, string> = { ...call.headers };
    if (auth !== undefined) headers.Authorization = `Bearer ${auth}`;
    let init: { method: string; headers: Record<string, string>; body?: string | Uint8Array | undefined };
    // /v1/auth/* needs neither signature, digest nor idempotency key (docs/signatures.md: Tokens and credentials).
    if (op.path.startsWith('/v1/auth/')) {
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      init = { method: op.method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    } else {
      init = signRequest({ method: op.method, url, body, keyId: signer.keyId, privateKey, headers, idempotencyKey: call.idempotencyKey });
    }
    const res = await send(url, { ...init, signal: call.signal } as RequestInit);
    return { op, path, status: res.status, type: res.headers.get('Content-Type') ?? '', text: await res.text() };
  };

  const refuse = (name: string, answer: Awaited<ReturnType<typeof request>>): ApiError =>
    new ApiError(name, answer.op.method, answer.path, answer.status, /json/.test(answer.type) ? problemOf(answer.text) : undefined, answer.text);

  const result = (answer: Awaited<ReturnType<typeof request>>) => (answer.text !== '' && /json/.test(answer.type) ? JSON.parse(answer.text) : undefined);

  const currentToken = (): Promise<string> =>
    (token ??= (async () => {
      const answer = await request('getToken', [{ apiKey: options.apiKey, apiSecret: options.apiSecret }], undefined);
      if (answer.status >= 300) throw refuse('getToken', answer);
      return (result(answer) as { token: string }).token;
    })().catch((error: unknown) => {
      token = undefined;
      throw error;
    }));

  /** An authenticated call; a 401 `not_authorised` (expired, revoked) fetches a new token and tries once more. */
  const authorised = async (name: OperationName, args: unknown[]) => {
    for (let attempt = 1; ; attempt++) {
      const used = await currentToken();
      const answer = await request(name, args, used);
      if (answer.status === 401 && attempt === 1 && /not_authorised/.test(answer.text)) {
        if (token !== undefined && (await token.catch(() => undefined)) === used) token = undefined;
        continue;
      }
      if (answer.status >= 300) throw refuse(name, answer);
      return result(answer);
    }
  };

  const registered = (): Promise<void> =>
    (registration ??= (async () => {
      if (!generated) return;
      const pem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
      await authorised('updateSigningKey', [{ signingKeyId: signer.keyId, signingKey: Buffer.from(pem).toString('base64') }]);
    })().catch((error: unknown) => {
      registration = undefined;
      throw error;
    }));

  const call = async (name: OperationName, args: unknown[]) => {
    if (name === 'getToken') {
      const answer = await request(name, args, undefined);
      if (answer.status >= 300) throw refuse(name, answer);
      return result(answer);
    }
    const op = OPERATIONS[name];
    // A mutation keeps one Idempotency-Key across the retry after a new token.
    if (MUTATIONS.has(op.method) && !op.path.startsWith('/v1/auth/')) {
      const at = op.params.length + (op.body ? 1 : 0) + (op.query ? 1 : 0);
      const given = (args[at] ?? {}) as CallOptions;
      args = Array.from({ length: at }, (_, i) => args[i]);
      args.push({ ...given, idempotencyKey: given.idempotencyKey ?? randomUUID() });
    }
    if (!op.path.startsWith('/v1/auth/')) await registered();
    return authorised(name, args);
  };

  const client = {
    keyId: signer.keyId,
    token: currentToken,
  } as Record<string, unknown>;
  for (const name of Object.keys(OPERATIONS) as OperationName[]) client[name] = (...args: unknown[]) => call(name, args);
  return client as unknown as ApiClient;
}
