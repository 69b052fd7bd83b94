/**
 * How an integrator checks a webhook, done two ways that share no code with the sandbox: with the
 * `http-message-signatures` library, and by hand with node:crypto (a signature base built here
 * from RFC 9421 §2.5). Both also check Content-Digest against the body (RFC 9530). Not shipped.
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { createVerifier, httpbis } from 'http-message-signatures';
import type { ReceivedRequest } from './receiver.js';

const ALG = 'ecdsa-p384-sha384';

/** The key from GET /v1/webhooks/verification-key: `key` is base64 of the PEM text. */
export function publicKeyFrom(verificationKey: { key: string }): KeyObject {
  return createPublicKey(Buffer.from(verificationKey.key, 'base64').toString('utf8'));
}

const header = (request: ReceivedRequest, name: string): string => {
  const value = request.headers[name];
  if (typeof value !== 'string') throw new Error(`missing header ${name}`);
  return value;
};

function digestMatches(request: ReceivedRequest): boolean {
  const expected = `sha-512=:${createHash('sha512').update(request.body).digest('base64')}:`;
  return header(request, 'content-digest') === expected;
}

/** Verifies with node:crypto and a hand-built signature base. */
export function verifyWithNodeCrypto(request: ReceivedRequest, key: KeyObject, keyId: string): boolean {
  const input = /^sig=(\("@method" "@authority" "@path" "content-digest"\);created=\d+;keyid="([^"]+)";alg="([^"]+)")$/.exec(
    header(request, 'signature-input'),
  );
  const signature = /^sig=:([A-Za-z0-9+/=]+):$/.exec(header(request, 'signature'));
  if (!input || !signature || input[2] !== keyId || input[3] !== ALG) return false;
  const base = [
    `"@method": ${request.method}`,
    `"@authority": ${header(request, 'host')}`,
    `"@path": ${request.path.split('?')[0]}`,
    `"content-digest": ${header(request, 'content-digest')}`,
    `"@signature-params": ${input[1]}`,
  ].join('\n');
  const ok = verify('sha384', Buffer.from(base), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature[1]!, 'base64'));
  return ok && digestMatches(request);
}

/** Verifies with the http-message-signatures library, requiring the contract's components. */
export async function verifyWithLibrary(request: ReceivedRequest, key: KeyObject, keyId: string): Promise<boolean> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
  const verified = await httpbis.verifyMessage(
    {
      keyLookup: async (params) => (params.keyid === keyId ? { id: keyId, algs: [ALG], verify: createVerifier(key, ALG) } : null),
      requiredFields: ['@method', '@authority', '@path', 'content-digest'],
      requiredParams: ['created', 'keyid', 'alg'],
    },
    { method: request.method, url: `http://${header(request, 'host')}${request.path}`, headers },
  );
  return verified === true && digestMatches(request);
}
