/** EIP-55: how an Ethereum address is written with its checksum in the letters' case. */
import { bytesToHex } from '@noble/hashes/utils.js';
import { keccak256 } from './keccak.js';

/** EIP-55 mixed-case checksum of a 20-byte address. */
export function toChecksumAddress(address: Uint8Array | string): string {
  const hex = typeof address === 'string' ? address.replace(/^0x/i, '').toLowerCase() : bytesToHex(address);
  const hash = keccak256(hex);
  let out = '0x';
  // A letter is upper case where the hash's nibble at its index (high nibble first) is 8 or more.
  for (let i = 0; i < hex.length; i++) out += hash[i >> 1]! & (i & 1 ? 0x08 : 0x80) ? hex[i]!.toUpperCase() : hex[i]!;
  return out;
}
