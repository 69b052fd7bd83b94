/** The world as tree rows, and the filter over them (ui/tree.ts). */
import { describe, expect, it } from 'vitest';
import type { World } from './api-types.js';
import { filterRows, treeRows } from './tree.js';

const T = '2026-03-01T09:00:00.000Z';
const merchant = { id: 'TEST', name: 'Test Merchant', mcc: 9999, country: 'GB', city: 'London' };
const payment = { amount: '11.5', currency: 'EUR', merchantAmount: '12.5', merchantCurrency: 'USD', exchangeRate: '0.92', merchant };
const world: World = {
  webhooks: [{ id: 'w1', callbackUrl: 'http://127.0.0.1:3000/hooks', types: ['card.updated'], createdAt: T, updatedAt: T }],
  customers: [
    {
      id: 'c1',
      externalId: 'alice',
      chainId: 'eip155:1:0xabc',
      status: 'active',
      createdAt: T,
      updatedAt: T,
      accounts: [
        {
          id: 'a1',
          customerId: 'c1',
          status: 'active',
          type: 'card_account',
          currencies: ['EUR'],
          createdAt: T,
          updatedAt: T,
          cards: [
            {
              id: 'k1',
              accountId: 'a1',
              type: 'virtual',
              maskedPan: '431940******1234',
              expirationDate: '03/2029',
              billingAddress: { firstLine: '1', city: 'L', country: 'GB', postCode: 'N1' },
              status: 'active',
              createdAt: T,
              updatedAt: T,
              authorisations: [{ id: 'au1', accountId: 'a1', cardId: 'k1', status: 'captured', ...payment, createdAt: T, updatedAt: T }],
              transactions: [
                {
                  id: 't1',
                  accountId: 'a1',
                  cardId: 'k1',
                  authorisationId: 'au1',
                  status: 'processed',
                  direction: 'debit',
                  ...payment,
                  tokenAmount: '11.5',
                  token: 'eip155:1/erc20:0x1',
                  fees: [],
                  chainTransactions: [],
                  createdAt: T,
                  updatedAt: T,
                },
              ],
            },
          ],
        },
      ],
    },
    { id: 'c2', externalId: 'carol', chainId: 'eip155:1:0xdef', status: 'initiating', createdAt: T, updatedAt: T, accounts: [] },
  ],
};

describe('treeRows', () => {
  it('lists webhooks, then each customer above its accounts, cards, authorisations and transactions, each with the JSON the API shows', () => {
    const rows = treeRows(world);
    expect(rows.map((r) => [r.kind, r.depth, r.label, r.status])).toEqual([
      ['webhook', 0, 'http://127.0.0.1:3000/hooks', undefined],
      ['customer', 0, 'alice', 'active'],
      ['account', 1, 'EUR', 'active'],
      ['card', 2, 'virtual 431940******1234 · 03/2029', 'active'],
      ['authorisation', 3, '12.5 USD · Test Merchant', 'captured'],
      ['transaction', 3, '11.5 EUR', 'processed'],
      ['customer', 0, 'carol', 'initiating'],
    ]);
    expect(rows[1]!.json).toEqual({ id: 'c1', externalId: 'alice', chainId: 'eip155:1:0xabc', status: 'active', createdAt: T, updatedAt: T });
    expect(Object.keys(rows[3]!.json)).not.toContain('authorisations');
  });
});

describe('filterRows', () => {
  it('keeps the rows that match and every row above them', () => {
    const rows = treeRows(world);
    expect(filterRows(rows, '1234').map((r) => r.id)).toEqual(['c1', 'a1', 'k1']);
    expect(filterRows(rows, 'PROCESSED').map((r) => r.id)).toEqual(['c1', 'a1', 'k1', 't1']);
    expect(filterRows(rows, 'carol').map((r) => r.id)).toEqual(['c2']);
    expect(filterRows(rows, '  ')).toBe(rows);
    expect(filterRows(rows, 'nothing like it')).toEqual([]);
  });
});
