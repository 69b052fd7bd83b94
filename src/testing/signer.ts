/**
 * Signs requests for the in-process harness the way an integrator's client would: RFC 9421
 * signatures made by the independent `http-message-signatures` library (so a passing check is not
 * the sandbox agreeing with itself), an RFC 9530 `Content-Digest` computed here with node:crypto,
 * and an `Idempotency-Key` on mutations. Each part can be left out or spoiled to provoke a refusal.
 * Not shipped.
 */
import { createHash, generateKeyPairSync, randomUUID, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { httpbis, type SigningKey } from 'http-message-signatures';
import { MUTATIONS } from '../domain/idempotency.js';
import type { TestSandbox } from './harness.js';

export const SIGNATURE_ALGORITHM = 'ecdsa-p384-sha384';
/** The origin the harness sends requests to; `@authority` is taken from it. */
export const HARNESS_ORIGIN = 'http://127.0.0.1:4242';

export interface TestSigningKey {
  keyId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Base64 of the SPKI PEM text: the `signingKey` of PUT /v1/auth/signing. */
  signingKey: string;
}

/** A fresh key pair (P-384 unless another curve is asked for, to provoke refusals). */
export function newSigningKey(keyId: string = randomUUID(), namedCurve = 'P-384'): TestSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve });
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return { keyId, privateKey, publicKey, signingKey: Buffer.from(pem).toString('base64') };
}

/** RFC 9530 §2: `<alg>=:<base64 digest>:`. */
export function digestHeader(body: string | Uint8Array, algorithms: readonly ('sha-512' | 'sha-256')[] = ['sha-512']): string {
  return algorithms.map((alg) => `${alg}=:${createHash(alg.replace('-', '')).update(body).digest('base64')}:`).join(', ');
}

export interface SignOptions {
  body?: string;
  /** Extra headers, sent and available to cover. */
  headers?: Record<string, string>;
  /** Digest algorithms for a body; `false` sends no Content-Digest. Default sha-512. */
  digest?: readonly ('sha-512' | 'sha-256')[] | false;
  /** Default: a fresh UUID on POST, PUT, PATCH and DELETE; `false` sends none. */
  idempotencyKey?: string | false;
  /** Covered components; default `@method @authority @path` plus `content-digest` with a body. */
  components?: string[];
  /** Signature `created`; default now; `null` leaves it out. */
  created?: Date | null;
  expires?: Date;
  /** Overrides the keyid sent (the key still signs). */
  keyId?: string;
  /** Replaces how bytes are signed, e.g. to pick a high-S signature. */
  sign?: (data: Buffer) => Buffer;
}

/** The headers of a signed request for `method url`: Content-Type, Content-Digest, Idempotency-Key, Signature-Input, Signature. */
export async function signedHeaders(key: TestSigningKey, method: string, url: string, options: SignOptions = {}): Promise<Record<string, string>> {
  const headers: Record<string, string> = { ...options.headers };
  const hasBody = options.body !== undefined && options.body.length > 0;
  if (options.body !== undefined) headers['Content-Type'] ??= 'application/json';
  if (hasBody && options.digest !== false) headers['Content-Digest'] = digestHeader(options.body!, options.digest);
  const idempotencyKey = options.idempotencyKey ?? (MUTATIONS.has(method.toUpperCase()) ? randomUUID() : false);
  if (idempotencyKey !== false) headers['Idempotency-Key'] = idempotencyKey;

  const sign = options.sign ?? ((data: Buffer) => cryptoSign('sha384', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' }));
  const signer: SigningKey = { id: options.keyId ?? key.keyId, alg: SIGNATURE_ALGORITHM, sign: async (data) => sign(data) };
  const components = options.components ?? ['@method', '@authority', '@path', ...(hasBody && options.digest !== false ? ['content-digest'] : [])];
  const signed = await httpbis.signMessage(
    {
      key: signer,
      fields: components,
      params: ['keyid', 'alg', ...(options.created === null ? [] : ['created']), ...(options.expires ? ['expires'] : [])],
      paramValues: { created: options.created === null ? null : (options.created ?? new Date()), ...(options.expires ? { expires: options.expires } : {}) },
    },
    { method, url, headers },
  );
  return signed.headers as Record<string, string>;
}

export interface SignedRequestOptions extends SignOptions {
  /** Bearer token; see the harness. */
  token?: string | false;
  /** Applied to the headers after signing, to tamper with a request in flight. */
  tamper?: (request: { headers: Record<string, string>; body: string | undefined }) => { headers: Record<string, string>; body: string | undefined };
}

/** Signs and sends a request through the harness; a non-string body is serialised as JSON once. */
export async function sendSigned(
  sandbox: TestSandbox,
  key: TestSigningKey,
  method: string,
  path: string,
  options: Omit<SignedRequestOptions, 'body'> & { body?: unknown } = {},
) {
  const body = options.body === undefined || typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers = await signedHeaders(key, method, `${HARNESS_ORIGIN}${path}`, { ...options, body });
  const sent = options.tamper ? options.tamper({ headers, body }) : { headers, body };
  return sandbox.request(method, path, { body: sent.body, headers: sent.headers, token: options.token });
}

/** Registers the key with the sandbox (PUT /v1/auth/signing), as an integrator would. */
export async function registerSigningKey(sandbox: TestSandbox, key: TestSigningKey): Promise<void> {
  const res = await sandbox.request('PUT', '/v1/auth/signing', { body: { signingKeyId: key.keyId, signingKey: key.signingKey } });
  if (res.status !== 204) throw new Error(`PUT /v1/auth/signing answered ${res.status}: ${await res.text()}`);
}
