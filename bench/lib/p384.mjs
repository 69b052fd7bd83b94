/**
 * What one core does with P-384 (node:crypto, synchronously, for one second): signatures and
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

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const base = Buffer.alloc(300, 'x');

/** P-384 signatures per second on one core. */
export const signRate = () => rate(() => sign('sha384', base, { key: privateKey, dsaEncoding: 'ieee-p1363' }));

/** P-384 verifications per second on one core. */
export function verifyRate() {
  const signature = sign('sha384', base, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return rate(() => verify('sha384', base, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature));
}
