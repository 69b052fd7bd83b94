/**
 * A customer's wallet for tests (docs/companion.md: Helpers for your tests): a secp256k1 key that signs
 * challenges with personal_sign (EIP-191), as a browser wallet would. With a seed it is the same
 * wallet run after run; for test funds only, never for real ones.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { OwnerSignature } from '../client/api.generated.js';
import { addressOf, signPersonal } from '../signatures/eip191.js';

const DEFAULT_WALLET_CHAIN = 'eip155:11155111';

export interface WalletOptions {
  /** The CAIP-2 chain of its `chainId`; Ethereum Sepolia (`eip155:11155111`) by default. */
  chain?: string;
  /** The private key, 0x-hex; a new one by default. */
  privateKey?: string;
}

export interface Wallet {
  /** EIP-55 checksummed address. */
  address: string;
  /** CAIP-10 id: what a customer registers as `chainId` and signs as `ownerId`. */
  chainId: string;
  /** personal_sign of a base64 challenge's bytes: base64 of r‖s‖v. */
  sign(challenge: string): string;
  /** The body of POST /v1/customers/{id}/challenge/sign and /v1/accounts/{id}/challenge/sign. */
  signChallenge(challenge: string): OwnerSignature;
}

/** A private key derived from `seed` and `n`: the n-th wallet of a seeded sandbox. */
export const seededWalletKey = (seed: number, n: number): string => `0x${createHash('sha256').update(`card-sandbox wallet ${seed} ${n}`).digest('hex')}`;

/**
 * A customer's wallet: its CAIP-10 `chainId` to register, and the signature of each challenge the
 * API asks it to sign.
 *
 * @example
 * ```ts
 * import { createWallet } from 'card-sandbox';
 *
 * const wallet = createWallet();
 * const customer = await client.createCustomer({ chainId: wallet.chainId, externalId: 'alice' });
 * await client.signCustomerChallenge(customer.id, wallet.signChallenge(customer.challenge));
 * ```
 */
export function createWallet({ chain = DEFAULT_WALLET_CHAIN, privateKey }: WalletOptions = {}): Wallet {
  const key = privateKey === undefined ? randomBytes(32) : Buffer.from(privateKey.replace(/^0x/, ''), 'hex');
  if (key.length !== 32) throw new Error('a wallet private key is 32 bytes of hex');
  const address = addressOf(key);
  const chainId = `${chain}:${address}`;
  const sign = (challenge: string) => Buffer.from(signPersonal(Buffer.from(challenge, 'base64'), key)).toString('base64');
  return { address, chainId, sign, signChallenge: (challenge) => ({ ownerId: chainId, challenge, signature: sign(challenge) }) };
}
