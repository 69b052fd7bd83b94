// The whole journey with createSandbox(): customer → verify → account → signed challenge → deployed
// → card → issued → authorisation → transaction, with every webhook verified on the way.
import { createSandbox } from 'card-sandbox';
import { afterAll, expect, test } from 'vitest';

const sandbox = await createSandbox({ clock: '2026-01-01T09:00:00Z' });
afterAll(() => sandbox.close());

test('a customer pays with a virtual card', async () => {
  const { client, clock } = sandbox;
  const hooks = await sandbox.webhooks.receiver();
  const wallet = sandbox.wallet();

  const customer = await client.createCustomer({ chainId: wallet.chainId, externalId: 'alice' });
  await client.signCustomerChallenge(customer.id, wallet.signChallenge(customer.challenge));
  await client.simulateVerifyCustomer(customer.id);

  const account = await client.createCustomerAccount(customer.id, { type: 'card_account', currencies: ['EUR'] });
  await client.signAccountChallenge(account.id, wallet.signChallenge(account.challenge));
  await clock.advance('2s'); // the smart account deploys
  expect(await client.getAccount(account.id)).toMatchObject({ status: 'active' });

  const billingAddress = { firstLine: '1 Main Street', city: 'London', country: 'GB', postCode: 'N1 1AA' };
  const card = await client.createAccountCard(account.id, { type: 'virtual', billingAddress });
  await client.simulateIssueCard(card.id);

  const authorisation = await client.simulateCardAuthorisation(card.id, { amount: '12.50', currency: 'USD' });
  await clock.advance('2s'); // captured after 1 s, settled 1 s later
  const [transaction] = await client.getCardTransactions(card.id);
  expect(transaction).toMatchObject({ authorisationId: authorisation.id, status: 'processed', merchantAmount: '12.5' });

  const settled = await hooks.waitFor('transaction.updated', (t) => t.status === 'processed');
  expect(settled.id).toBe(transaction!.id);
});
