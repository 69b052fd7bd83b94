/**
 * ECDSA P-384 keys: the integrator's request-signing public keys and the sandbox's webhook key.
 * Keys travel as base64 of PEM text (docs/signatures.md: Signing keys; docs/webhooks.md: Webhooks).
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { p384 } from '@noble/curves/nist.js';

export function isP384(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'secp384r1';
}

/** Parses base64 of a PEM public key; returns the key, or why it is not a P-384 public key. */
export function parseP384PublicKey(base64Pem: string): { key: KeyObject; pem: string } | { error: string } {
  const pem = Buffer.from(base64Pem, 'base64').toString('utf8');
  if (!pem.includes('-----BEGIN')) return { error: 'signingKey must be base64 of a PEM public key (-----BEGIN PUBLIC KEY-----)' };
  // createPublicKey would happily derive the public half of a private key: refuse it instead.
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem))
    return { error: 'signingKey must be a public key, not a private key: send only the public half (-----BEGIN PUBLIC KEY-----)' };
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    return { error: 'signingKey is not a readable PEM public key' };
  }
  if (!isP384(key)) {
    const kind = key.asymmetricKeyType === 'ec' ? `an EC key on ${key.asymmetricKeyDetails?.namedCurve}` : `a ${key.asymmetricKeyType} key`;
    return { error: `signingKey must be an ECDSA P-384 (secp384r1) public key, got ${kind}` };
  }
  return { key, pem: spkiPem(key) };
}

export function spkiPem(key: KeyObject): string {
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

export function pkcs8Pem(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * A new P-384 key pair; from `seed` (48 bytes or more) the same pair every time, for deterministic
 * runs: the private scalar is the seed reduced into [1, n - 1].
 */
export function generateP384(seed?: Uint8Array): { privateKey: KeyObject; publicKey: KeyObject } {
  if (seed === undefined) return generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const n = p384.Point.CURVE().n;
  const d = (BigInt(`0x${Buffer.from(seed).toString('hex')}`) % (n - 1n)) + 1n;
  const scalar = Buffer.from(d.toString(16).padStart(96, '0'), 'hex');
  const point = p384.getPublicKey(scalar, false);
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
  const jwk = { kty: 'EC', crv: 'P-384', d: b64(scalar), x: b64(point.subarray(1, 49)), y: b64(point.subarray(49)) };
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

/** Reads a PEM private key and checks it is P-384. */
export function readP384PrivateKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (!isP384(key)) throw new Error('the key is not an ECDSA P-384 private key');
  return key;
}

/** A stable UUID-shaped id derived from the key's SPKI bytes. */
export function keyFingerprintId(key: KeyObject): string {
  const h = createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
