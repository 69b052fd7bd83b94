/** The engine (docs/api.md: API behaviour): chains and assets per environment, the chain filter and CAIP checks. */
import { describe, expect, it } from 'vitest';
import { isAssetId, isChainId } from '../domain/caip.js';
import { createTestSandbox } from '../testing/harness.js';

describe('sandbox environment', () => {
  const sandbox = createTestSandbox();

  it('GET /chains lists the testnets, each with an id and a name only', async () => {
    const { status, body } = await sandbox.json('GET', '/v1/chains');
    expect(status).toBe(200);
    expect(body.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(['eip155:300', 'eip155:421614', 'eip155:11155111']));
    expect(body.map((c: { id: string }) => c.id)).not.toContain('eip155:1');
    for (const chain of body) {
      expect(Object.keys(chain).sort()).toEqual(['id', 'name']);
      expect(isChainId(chain.id)).toBe(true);
    }
  });

  it('GET /assets lists stablecoins on every testnet as CAIP-19 ids', async () => {
    const { status, body } = await sandbox.json('GET', '/v1/assets');
    expect(status).toBe(200);
    for (const asset of body) {
      expect(Object.keys(asset).sort()).toEqual(['blockchain', 'id', 'name', 'symbol']);
      expect(isAssetId(asset.id)).toBe(true);
      expect(asset.id.startsWith(`${asset.blockchain}/`)).toBe(true);
    }
    for (const chain of ['eip155:300', 'eip155:421614', 'eip155:11155111']) {
      expect(body.filter((a: { blockchain: string }) => a.blockchain === chain).map((a: { symbol: string }) => a.symbol)).toEqual(
        expect.arrayContaining(['USDC', 'EURC']),
      );
    }
  });

  it('filters assets by chain', async () => {
    const { body } = await sandbox.json('GET', '/v1/assets?chain=eip155:421614');
    expect(body.length).toBeGreaterThan(0);
    expect(body.every((a: { blockchain: string }) => a.blockchain === 'eip155:421614')).toBe(true);
  });

  it('answers [] for a well-formed chain it does not support', async () => {
    for (const chain of ['eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']) {
      const { status, body } = await sandbox.json('GET', `/v1/assets?chain=${encodeURIComponent(chain)}`);
      expect(status).toBe(200);
      expect(body).toEqual([]);
    }
  });

  it.each(['eip155', 'ETH', 'eip155:', ':1', 'e:1', 'eip155:1:2', '', 'eip155:300/erc20:0xabc'])(
    'refuses the malformed chain %j with 400 naming chain',
    async (chain) => {
      const { status, body } = await sandbox.json('GET', `/v1/assets?chain=${encodeURIComponent(chain)}`);
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'invalid_request', errors: [{ path: 'chain' }] });
    },
  );
});

describe('production environment', () => {
  const sandbox = createTestSandbox({ env: 'production' });

  it('lists mainnets and their assets, no testnets', async () => {
    const chains = (await sandbox.json('GET', '/v1/chains')).body.map((c: { id: string }) => c.id);
    expect(chains).toEqual(expect.arrayContaining(['eip155:1']));
    expect(chains).not.toContain('eip155:11155111');
    const assets = (await sandbox.json('GET', '/v1/assets?chain=eip155:1')).body;
    expect(assets.map((a: { symbol: string }) => a.symbol)).toEqual(expect.arrayContaining(['USDC']));
    expect((await sandbox.json('GET', '/v1/assets?chain=eip155:11155111')).body).toEqual([]);
  });
});
