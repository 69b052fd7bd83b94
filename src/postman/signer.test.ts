import { createHash, createHmac, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { p384 } from '@noble/curves/nist.js';
import { SIGNER_SOURCE, TEST_VECTOR } from './signer.js';

type Point = [bigint, bigint];
interface Signer {
  sign(dHex: string, text: string): string;
  publicKey(dHex: string): Point;
  verify(q: Point, text: string, sigHex: string): boolean;
  privateScalar(derHex: string): string;
  selfTest(): string | undefined;
}

/** The hashes as crypto-js gives them to the script in Postman, here from node:crypto. */
const lib = {
  sha384: (text: string) => createHash('sha384').update(text).digest('hex'),
  hmacSha384: (keyHex: string, dataHex: string) => createHmac('sha384', Buffer.from(keyHex, 'hex')).update(Buffer.from(dataHex, 'hex')).digest('hex'),
};
const load = (hashes: typeof lib = lib): Signer => new Function('lib', `${SIGNER_SOURCE}\nreturn cardSandboxP384(lib);`)(hashes) as Signer;

const jwkPoint = (key: ReturnType<typeof createPublicKey>): Point => {
  const jwk = key.export({ format: 'jwk' });
  return [BigInt(`0x${Buffer.from(jwk.x!, 'base64url').toString('hex')}`), BigInt(`0x${Buffer.from(jwk.y!, 'base64url').toString('hex')}`)];
};

describe('the P-384 signer carried in the Postman collection', () => {
  const signer = load();

  it('passes its self-test, and fails it when a hash is wrong', () => {
    expect(signer.selfTest()).toBeUndefined();
    const broken = load({ ...lib, sha384: (text) => lib.sha384(`${text}.`) });
    expect(broken.selfTest()).toMatch(/RFC 6979 vector gave/);
  });

  it('signs as RFC 6979 says, as @noble/curves does, and node:crypto verifies it', () => {
    for (const text of ['sample', 'test', '"@method": POST\n"@signature-params": ("@method");created=1']) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
      const d = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url').toString('hex');
      const signature = signer.sign(d, text);
      expect(signature).toBe(Buffer.from(p384.sign(Buffer.from(text), Buffer.from(d, 'hex'), { lowS: false })).toString('hex'));
      expect(verify('sha384', Buffer.from(text), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'hex'))).toBe(true);
      expect(signer.publicKey(d)).toEqual(jwkPoint(publicKey));
      expect(signer.verify(jwkPoint(publicKey), text, signature)).toBe(true);
      expect(signer.verify(jwkPoint(publicKey), `${text}!`, signature)).toBe(false);
    }
    expect(signer.sign(TEST_VECTOR.key, 'sample')).toBe(TEST_VECTOR.signature);
  });

  it('reads the private scalar of SEC 1 and PKCS #8 keys, and refuses another key', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const d = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url').toString('hex');
    for (const type of ['sec1', 'pkcs8'] as const) expect(signer.privateScalar(privateKey.export({ type, format: 'der' }).toString('hex'))).toBe(d);
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'der' }).toString('hex');
    expect(() => signer.privateScalar(p256)).toThrow(/not an EC P-384 private key/);
  });
});
