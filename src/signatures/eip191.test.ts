import { getAddress, hashMessage } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '@noble/hashes/utils.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { toChecksumAddress } from '../domain/eip55.js';
import { addressOf, decodeSignature, personalMessageHash, recoverPersonalSigner, signPersonal } from './eip191.js';

const account = privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
const text = 'card-sandbox.dev wants you to sign in with your Ethereum account:\nhello';
const message = new TextEncoder().encode(text);
const hexToBase64 = (hex: string) => Buffer.from(hex.slice(2), 'hex').toString('base64');

describe('EIP-191 personal_sign', () => {
  it('hashes like viem', () => {
    expect(`0x${bytesToHex(personalMessageHash(message))}`).toBe(hashMessage(text));
  });

  it('recovers the signer of a viem signature in every accepted encoding', async () => {
    const signature = await account.signMessage({ message: text });
    for (const encoded of [hexToBase64(signature), Buffer.from(signature).toString('base64'), signature, signature.slice(2)]) {
      expect(recoverPersonalSigner(message, decodeSignature(encoded)!)).toBe(account.address);
    }
  });

  it('accepts v as 0/1 as well as 27/28', async () => {
    const bytes = Buffer.from((await account.signMessage({ message: text })).slice(2), 'hex');
    bytes[64] = bytes[64]! - 27;
    expect(recoverPersonalSigner(message, decodeSignature(bytes.toString('base64'))!)).toBe(account.address);
  });

  it('accepts the high-s twin of a signature, as ecrecover does', async () => {
    const bytes = Buffer.from((await account.signMessage({ message: text })).slice(2), 'hex');
    const s = BigInt(`0x${bytes.subarray(32, 64).toString('hex')}`);
    const highS = secp256k1.Point.CURVE().n - s;
    bytes.set(Buffer.from(highS.toString(16).padStart(64, '0'), 'hex'), 32);
    bytes[64] = bytes[64] === 27 ? 28 : 27;
    expect(recoverPersonalSigner(message, decodeSignature(bytes.toString('base64'))!)).toBe(account.address);
  });

  it('recovers another address for another message', async () => {
    const signature = decodeSignature(await account.signMessage({ message: 'something else' }))!;
    expect(recoverPersonalSigner(message, signature)).not.toBe(account.address);
  });

  it('refuses signatures that are not 65 bytes with v in 0, 1, 27, 28', async () => {
    const bytes = Buffer.from((await account.signMessage({ message: text })).slice(2), 'hex');
    expect(decodeSignature(bytes.subarray(0, 64).toString('base64'))).toBeUndefined();
    expect(decodeSignature(Buffer.concat([bytes, Buffer.of(0)]).toString('base64'))).toBeUndefined();
    expect(decodeSignature(Buffer.concat([bytes.subarray(0, 64), Buffer.of(29)]).toString('base64'))).toBeUndefined();
    expect(decodeSignature('not base64!')).toBeUndefined();
    expect(decodeSignature('')).toBeUndefined();
  });

  it('gives no signer when r is not on the curve', () => {
    const bytes = new Uint8Array(65).fill(0xff);
    bytes[64] = 27;
    expect(recoverPersonalSigner(message, bytes)).toBeUndefined();
  });
});

describe('signPersonal', () => {
  it('signs as viem does, byte for byte, and recovers to the address of the key', async () => {
    const key = Buffer.from('4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318', 'hex');
    expect(addressOf(key)).toBe(account.address);
    const ours = signPersonal(message, key);
    expect(`0x${bytesToHex(ours)}`).toBe(await account.signMessage({ message: { raw: message } }));
    expect(recoverPersonalSigner(message, ours)).toBe(account.address);
  });
});

describe('toChecksumAddress', () => {
  it('matches EIP-55 as viem computes it', () => {
    for (const lower of [
      '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359',
      '0x52908400098527886e0f7030069857d2e4169ee7',
      '0xde709f2102306220921060314715629080e2fb77',
    ]) {
      expect(toChecksumAddress(lower)).toBe(getAddress(lower));
    }
  });
});
