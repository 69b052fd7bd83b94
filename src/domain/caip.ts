/**
 * Chain-agnostic identifiers: CAIP-2 chain ids (`eip155:1`), CAIP-10 account ids
 * (`eip155:1:0xab…`) and CAIP-19 asset ids (`eip155:1/erc20:0x…`).
 */
const NAMESPACE = '[-a-z0-9]{3,8}';
const REFERENCE = '[-_a-zA-Z0-9]{1,32}';
const CHAIN = `${NAMESPACE}:${REFERENCE}`;
const CAIP2 = new RegExp(`^${CHAIN}$`);
const CAIP10 = new RegExp(`^(${CHAIN}):([-.%a-zA-Z0-9]{1,128})$`);
const CAIP19 = new RegExp(`^${CHAIN}/${NAMESPACE}:[-.%a-zA-Z0-9]{1,128}(/[-.%a-zA-Z0-9]{1,78})?$`);
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

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
  const m = CAIP10.exec(value);
  if (!m) return undefined;
  const chain = m[1]!;
  const [namespace, reference] = chain.split(':') as [string, string];
  const address = m[2]!;
  if (namespace === 'eip155' && (!EVM_ADDRESS.test(address) || !/^\d+$/.test(reference))) return undefined;
  return { chain, namespace, reference, address };
}
