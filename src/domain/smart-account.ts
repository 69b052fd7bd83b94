import { hexToBytes } from '@noble/hashes/utils.js';
import { toChecksumAddress } from './eip55.js';
import { keccak256 } from './keccak.js';

/**
 * The smart-account address an account deploys to: the last 20 bytes of
 * keccak-256(owner address bytes ‖ account id bytes), EIP-55 checksummed — the same inputs give
 * the same address on every run, like a CREATE2 deployment from a fixed factory.
 */
export function smartAccountAddress(ownerAddress: string, accountId: string): string {
  const owner = hexToBytes(ownerAddress.slice(2).toLowerCase());
  const id = hexToBytes(accountId.replaceAll('-', '').toLowerCase());
  const hash = keccak256(new Uint8Array([...owner, ...id]));
  return toChecksumAddress(hash.slice(12));
}
