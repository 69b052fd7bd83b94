/**
 * One customer's journey through an integrator's client, as a test suite runs many at once: a
 * customer proven by its wallet (the companion's `createWallet`) and verified, and an account
 * signed for. For the report's integration tests (docs/go-live.md: Before you go live); not shipped.
 */
import { createWallet } from '../../companion/wallet.js';
import type { IntegrationClient } from './client.js';

export interface Journeyed {
  customerId: string;
  accountId: string;
}

export async function journey(client: IntegrationClient, name: string): Promise<Journeyed> {
  const wallet = createWallet();
  const customer = await client.call('POST', '/customers', { chainId: wallet.chainId, externalId: name });
  await client.call('POST', `/customers/${customer.id}/challenge/sign`, wallet.signChallenge(customer.challenge));
  await client.call('PATCH', `/simulator/customers/${customer.id}/verify`);
  const account = await client.call('POST', `/customers/${customer.id}/accounts`, { type: 'card_account', currencies: ['EUR'] });
  await client.call('POST', `/accounts/${account.id}/challenge/sign`, wallet.signChallenge(account.challenge));
  return { customerId: customer.id, accountId: account.id };
}

/** What the journey reads back later (after its token expired, say). */
export async function lookBack(client: IntegrationClient, { customerId, accountId }: Journeyed): Promise<void> {
  await client.call('GET', `/customers/${customerId}`);
  await client.call('GET', `/accounts/${accountId}`);
}
