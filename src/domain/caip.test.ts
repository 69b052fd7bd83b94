/** CAIP-2 chain ids, CAIP-10 account ids and CAIP-19 asset ids. */
import { describe, expect, it } from 'vitest';
import { isAssetId, isChainId, parseAccountId } from './caip.js';

const ADDRESS = '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B';

describe('CAIP-2 chain ids', () => {
  it.each(['eip155:1', 'eip155:11155111', 'starknet:SN_MAIN', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'cosmos:cosmoshub-4'])('accepts %s', (id) => {
    expect(isChainId(id)).toBe(true);
  });
  it.each(['eip155', 'eip155:', ':1', 'ab:1', 'EIP155:1', 'eip155:1:2', 'eip155:1/erc20:0x0', `eip155:${'1'.repeat(33)}`, 'averylongns:1'])(
    'refuses %s',
    (id) => {
      expect(isChainId(id)).toBe(false);
    },
  );
});

describe('CAIP-19 asset ids', () => {
  it.each([
    'eip155:1/erc20:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    'eip155:1/slip44:60',
    'eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d/771769',
  ])('accepts %s', (id) => {
    expect(isAssetId(id)).toBe(true);
  });
  it.each(['eip155:1', 'eip155:1/erc20', 'eip155:1/erc20:', '/erc20:0x1', 'eip155:1/ERC20:0x1'])('refuses %s', (id) => {
    expect(isAssetId(id)).toBe(false);
  });
});

describe('parseAccountId', () => {
  it('splits a CAIP-10 account id', () => {
    expect(parseAccountId(`eip155:421614:${ADDRESS}`)).toEqual({ chain: 'eip155:421614', namespace: 'eip155', reference: '421614', address: ADDRESS });
    expect(parseAccountId('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv')?.namespace).toBe('solana');
  });
  it.each([
    ADDRESS,
    `eip155:1:${ADDRESS.slice(0, -1)}`,
    `eip155:1:${ADDRESS}0`,
    `eip155:mainnet:${ADDRESS}`,
    `eip155:1:0xZZ5801a7D398351b8bE11C439e05C5B3259aeC9B`,
    'eip155:1:',
  ])('refuses %s', (id) => {
    expect(parseAccountId(id)).toBeUndefined();
  });
});
