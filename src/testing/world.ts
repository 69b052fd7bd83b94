/**
 * Builders for tests: customers, accounts and cards brought to a wanted state through the real
 * services (so every event is written), with wallets made by viem — an implementation independent
 * of the sandbox's own signature code. Not shipped.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { privateKeyToAccount } from 'viem/accounts';
import type { NewCard } from '../wire/card.js';
import type { OwnerSignature } from '../wire/challenge.js';
import type { TestSandbox } from './harness.js';

export const DEFAULT_CHAIN = 'eip155:11155111';

export const BILLING_ADDRESS = { firstLine: '1 Test Street', city: 'London', country: 'GB', postCode: 'N1 1AA' };

export interface Wallet {
  /** EIP-55 checksummed address. */
  address: `0x${string}`;
  /** CAIP-10 id on `chain`: what a customer registers as `chainId` and signs as `ownerId`. */
  chainId: string;
  /** personal_sign of the decoded challenge; base64 of the 65 bytes r‖s‖v. */
  sign(challenge: string): Promise<string>;
}

/** A wallet whose key is derived from `seed`, so the same seed gives the same wallet. */
export function testWallet(seed: string, chain = DEFAULT_CHAIN): Wallet {
  const account = privateKeyToAccount(`0x${bytesToHex(keccak_256(utf8ToBytes(seed)))}`);
  return {
    address: account.address,
    chainId: `${chain}:${account.address}`,
    async sign(challenge) {
      const hex = await account.signMessage({ message: { raw: new Uint8Array(Buffer.from(challenge, 'base64')) } });
      return Buffer.from(hex.slice(2), 'hex').toString('base64');
    },
  };
}

/** The body of POST …/challenge/sign: `wallet` signing `challenge`. */
export async function proofFor(wallet: Wallet, challenge: string): Promise<OwnerSignature> {
  return { ownerId: wallet.chainId, challenge, signature: await wallet.sign(challenge) };
}

export interface CustomerOptions {
  chain?: string;
  externalId?: string;
  /** Stop before the simulator's verdict: `initiating` (just created) or `verifying` (challenge signed). */
  status?: 'initiating' | 'verifying' | 'active';
}

export interface BuiltCustomer {
  customerId: string;
  wallet: Wallet;
  challenge: string;
}

/** A customer created with a fresh wallet; by default its challenge signed and the simulator's verify applied. */
export async function customer(sb: TestSandbox, options: CustomerOptions = {}): Promise<BuiltCustomer> {
  const { customers } = sb.deps.services;
  const seed = sb.deps.ids.uuid();
  const wallet = testWallet(seed, options.chain);
  const created = customers.create({ chainId: wallet.chainId, externalId: options.externalId ?? `ext-${seed}` });
  const status = options.status ?? 'active';
  if (status !== 'initiating') customers.signChallenge(created.id, await proofFor(wallet, created.challenge));
  if (status === 'active') customers.verify(created.id);
  return { customerId: created.id, wallet, challenge: created.challenge };
}

export const activeCustomer = (sb: TestSandbox, options: Omit<CustomerOptions, 'status'> = {}) => customer(sb, options);

export interface AccountOptions {
  currencies?: string[];
  /** An existing active customer to use; a new one otherwise. */
  customer?: BuiltCustomer;
}

export interface BuiltAccount extends BuiltCustomer {
  accountId: string;
}

/** An account whose challenge is signed and which is not yet deployed (`pending`). */
export async function pendingAccount(sb: TestSandbox, options: AccountOptions = {}): Promise<BuiltAccount> {
  const owner = options.customer ?? (await activeCustomer(sb));
  const { accounts } = sb.deps.services;
  const created = accounts.create(owner.customerId, { type: 'card_account', currencies: options.currencies ?? ['EUR'] });
  accounts.signChallenge(created.id, await proofFor(owner.wallet, created.challenge));
  return { ...owner, accountId: created.id };
}

/** An active account: signed, then deployed by advancing the sandbox clock 2 s (which runs any other due job too). */
export async function activeAccount(sb: TestSandbox, options: AccountOptions = {}): Promise<BuiltAccount> {
  const built = await pendingAccount(sb, options);
  await sb.deps.services.scheduler.advance(sb.deps.clock.now() + 2_000);
  return built;
}

export interface CardOptions extends AccountOptions {
  type?: NewCard['type'];
  /** An existing active account to use; a new one otherwise. */
  account?: BuiltAccount;
  /** `issuing` stops before the simulator issues it. */
  status?: 'issuing' | 'active';
}

export interface BuiltCard extends BuiltAccount {
  cardId: string;
}

/** An active (issued) card on a new or given account. */
export async function issuedCard(sb: TestSandbox, options: CardOptions = {}): Promise<BuiltCard> {
  const account = options.account ?? (await activeAccount(sb, options));
  const { cards } = sb.deps.services;
  const type = options.type ?? 'virtual';
  const card = cards.create(account.accountId, { type, billingAddress: BILLING_ADDRESS, ...(type === 'physical' && { shippingAddress: BILLING_ADDRESS }) });
  if ((options.status ?? 'active') === 'active') cards.issue(card.id);
  return { ...account, cardId: card.id };
}

/** The bodies of the events written for `entityId`, oldest first. */
export function eventsOf(sb: TestSandbox, entityId: string): Record<string, unknown>[] {
  return sb.deps.store.sqlite
    .prepare('SELECT body FROM events WHERE entity_id = ? ORDER BY created_at, rowid')
    .all(entityId)
    .map((row) => JSON.parse((row as { body: string }).body) as Record<string, unknown>);
}
