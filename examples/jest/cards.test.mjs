// cards.test.mjs: a programme per test file, in the sandbox the global setup started.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createSandbox } from 'card-sandbox';

let sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ url: process.env.CARD_SANDBOX_URL, clock: '2026-01-01T00:00:00Z' });
});
afterAll(() => sandbox.close());

test('a card is issued', async () => {
  const { client } = sandbox;
  const wallet = sandbox.wallet();
  const customer = await client.createCustomer({ chainId: wallet.chainId, externalId: 'bob' });
  await client.signCustomerChallenge(customer.id, wallet.signChallenge(customer.challenge));
  await client.simulateVerifyCustomer(customer.id);
  const account = await client.createCustomerAccount(customer.id, { type: 'card_account', currencies: ['GBP'] });
  await client.signAccountChallenge(account.id, wallet.signChallenge(account.challenge));
  await sandbox.clock.advance('2s');
  const card = await client.createAccountCard(account.id, {
    type: 'virtual',
    billingAddress: { firstLine: '1 Main Street', city: 'London', country: 'GB', postCode: 'N1 1AA' },
  });
  await client.simulateIssueCard(card.id);
  expect(await client.getCard(card.id)).toMatchObject({ status: 'active', network: 'visa' });
});
