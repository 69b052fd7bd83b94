import { describe, expect, it } from 'vitest';
import { createTestSandbox } from './harness.js';
import { activeAccount, customer, issuedCard, pendingAccount } from './world.js';

describe('world builders', () => {
  it('bring customers, accounts and cards to the asked state through the services', async () => {
    const sb = createTestSandbox();
    const { customers, accounts, cards } = sb.deps.services;
    expect(customers.get((await customer(sb, { status: 'initiating' })).customerId).status).toBe('initiating');
    expect(customers.get((await customer(sb, { status: 'verifying' })).customerId).status).toBe('verifying');
    expect(accounts.get((await pendingAccount(sb)).accountId).status).toBe('pending');
    const account = await activeAccount(sb, { currencies: ['USD', 'GBP'] });
    expect(accounts.get(account.accountId)).toMatchObject({ status: 'active', currencies: ['USD', 'GBP'] });
    const card = await issuedCard(sb, { account });
    expect(cards.get(card.cardId)).toMatchObject({ status: 'active', accountId: account.accountId });
    expect(cards.get((await issuedCard(sb, { status: 'issuing' })).cardId).status).toBe('issuing');
  });

  it('give every customer its own wallet and external id', async () => {
    const sb = createTestSandbox();
    const [a, b] = [await customer(sb), await customer(sb)];
    expect(a.wallet.address).not.toBe(b.wallet.address);
    expect(sb.deps.services.customers.list()).toHaveLength(2);
  });
});
