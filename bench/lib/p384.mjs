/**
 * What one core does with P-384 (node:crypto, synchronously, for one second each): signatures and
 * verifications per second. Every webhook delivery needs a signature and every strictly verified
 * request a verification, so these are the references the delivery and strict figures stand beside.
 */
import { generateKeyPairSync, sign, verify } from 'node:crypto';

const rate = (op) => {
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < 1000) {
    op();
    n++;
  }
  return n / ((performance.now() - started) / 1000);
};

export function p384Rates() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const base = Buffer.alloc(300, 'x');
  const signature = sign('sha384', base, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return {
    signPerSecond: rate(() => sign('sha384', base, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
    verifyPerSecond: rate(() => verify('sha384', base, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)),
  };
}
