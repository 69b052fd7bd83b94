/**
 * Chain-agnostic identifiers: CAIP-2 chain ids (`eip155:1`), CAIP-10 account ids
 * (`eip155:1:0xab…`) and CAIP-19 asset ids (`eip155:1/erc20:0x…`).
 */
const NAMESPACE = '[-a-z0-9]{3,8}';
const REFERENCE = '[-_a-zA-Z0-9]{1,32}';
const CHAIN = `${NAMESPACE}:${REFERENCE}`;
const ADDRESS = '[-.%a-zA-Z0-9]{1,128}';
const EVM_ADDRESS_PATTERN = '0x[0-9a-fA-F]{40}';

/** The patterns of each kind of id, as /openapi.json states them and the checks below apply them. */
export const CHAIN_ID_PATTERN = `^${CHAIN}$`;
/** A CAIP-10 account id whose `eip155` accounts are 20-byte hex on a numeric chain reference. */
export const ACCOUNT_ID_PATTERN = `^(?:eip155:[0-9]{1,32}:${EVM_ADDRESS_PATTERN}|(?!eip155:)${CHAIN}:${ADDRESS})$`;
export const ASSET_ID_PATTERN = `^${CHAIN}/${NAMESPACE}:${ADDRESS}(/[-.%a-zA-Z0-9]{1,78})?$`;
/** An on-chain transaction: its chain (CAIP-2) and the chain's own id for it. */
export const TRANSACTION_ID_PATTERN = `^${CHAIN}:${ADDRESS}$`;

/** An account on one of `chains` (CAIP-2, `eip155` only): what a customer's wallet may be. */
export const walletPattern = (chains: readonly string[]): string =>
  `^(?:${chains.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}):${EVM_ADDRESS_PATTERN}$`;

const CAIP2 = new RegExp(CHAIN_ID_PATTERN);
const CAIP10 = new RegExp(ACCOUNT_ID_PATTERN);
const CAIP19 = new RegExp(ASSET_ID_PATTERN);

export const isChainId = (value: string): boolean => CAIP2.test(value);
export const isAssetId = (value: string): boolean => CAIP19.test(value);

export interface AccountId {
  chain: string;
  namespace: string;
  reference: string;
  address: string;
}

/** Parses a CAIP-10 account id; `eip155` addresses must be 20-byte hex. */
export function parseAccountId(value: string): AccountId | undefined {
  if (!CAIP10.test(value)) return undefined;
  const [namespace, reference, address] = value.split(':') as [string, string, string];
  return { chain: `${namespace}:${reference}`, namespace, reference, address };
}
