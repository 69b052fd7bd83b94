/**
 * RFC 9530 `Content-Digest`: a Structured Fields dictionary of algorithm → byte sequence.
 * We create `sha-512` and check `sha-512` and `sha-256` (§5, §7.2); every supported algorithm
 * present must match the raw body bytes.
 */
import { createHash } from 'node:crypto';
import { parseDictionary } from 'structured-headers';

const ALGORITHMS = { 'sha-512': 'sha512', 'sha-256': 'sha256' } as const;
export type DigestAlgorithm = keyof typeof ALGORITHMS;

export function contentDigest(body: Uint8Array | string, algorithm: DigestAlgorithm = 'sha-512'): string {
  // A one-member dictionary whose value is a byte sequence (RFC 8941 §3.3.5): `name=:base64:`.
  return `${algorithm}=:${createHash(ALGORITHMS[algorithm]).update(body).digest('base64')}:`;
}

/** Returns why the header does not match the body, or undefined when it does. */
export function checkContentDigest(header: string | undefined, body: Uint8Array): string | undefined {
  if (header === undefined || header.trim() === '') return 'the request has a body but no Content-Digest header';
  let dictionary;
  try {
    dictionary = parseDictionary(header);
  } catch {
    return `Content-Digest is not a Structured Fields dictionary: ${header}`;
  }
  let checked = 0;
  for (const [name, member] of dictionary) {
    if (!(name in ALGORITHMS)) continue;
    const value = member[0];
    if (!(value instanceof ArrayBuffer)) return `Content-Digest ${name} is not a byte sequence (:base64:)`;
    const expected = createHash(ALGORITHMS[name as DigestAlgorithm])
      .update(body)
      .digest();
    if (!expected.equals(Buffer.from(value))) {
      return `Content-Digest ${name} does not match the body: the body's ${name} is :${expected.toString('base64')}:`;
    }
    checked++;
  }
  if (checked === 0) return `Content-Digest has no supported algorithm (sha-512 or sha-256): ${header}`;
  return undefined;
}
