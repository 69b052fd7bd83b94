/** EIP-55: how an Ethereum address is written with its checksum in the letters' case. */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** EIP-55 mixed-case checksum of a 20-byte address. */
export function toChecksumAddress(address: Uint8Array | string): string {
  const hex = typeof address === 'string' ? address.replace(/^0x/i, '').toLowerCase() : bytesToHex(address);
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  return out;
}
