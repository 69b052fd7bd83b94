/**
 * Keccak-256 as Ethereum hashes (not SHA3-256: its padding differs). Node 24 and later name it
 * `keccak-256` (OpenSSL's), a fifth of the time @noble/hashes takes in JavaScript for the few dozen
 * bytes of an address; Node 22 does not, and hashes with @noble/hashes. A text is hashed as UTF-8.
 */
import { getHashes, hash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

let native: boolean | undefined;

export function keccak256(data: Uint8Array | string): Uint8Array {
  native ??= getHashes().includes('keccak-256');
  if (native) return hash('keccak-256', data, 'buffer');
  return keccak_256(typeof data === 'string' ? utf8ToBytes(data) : data);
}
