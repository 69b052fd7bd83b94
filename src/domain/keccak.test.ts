/**
 * Keccak-256 (keccak.ts): Ethereum's hash, whichever implementation the Node line running it has —
 * the known digests, a text hashed as its UTF-8 bytes, and @noble/hashes' digest for any input.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { keccak256 } from './keccak.js';

describe('keccak256', () => {
  it('gives Keccak-256, not SHA3-256: the known digests', () => {
    expect(bytesToHex(keccak256(new Uint8Array()))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(bytesToHex(keccak256('abc'))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
  });

  it('hashes a text as its UTF-8 bytes', () => {
    expect(keccak256('£ and €')).toEqual(keccak256(utf8ToBytes('£ and €')));
  });

  it('gives what @noble/hashes gives, for inputs of every length up to two blocks and more', () => {
    for (let length = 0; length <= 300; length += 7) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      expect(bytesToHex(keccak256(bytes))).toBe(bytesToHex(keccak_256(bytes)));
    }
  });
});
