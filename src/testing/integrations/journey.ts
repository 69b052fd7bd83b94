/**
 * One customer's journey through an integrator's client, as a test suite runs many at once: a
 * customer proven by its wallet (the companion's `createWallet`) and verified, and an account
 * signed for. For the report's integration tests (docs/go-live.md: Before you go live); not shipped.
 */
import type { Sandbox } from '../../companion/create-sandbox.js';
import { createWallet } from '../../companion/wallet.js';
import { WEBHOOK_TYPES } from '../../domain/outbox.js';
import { integrationClient, type IntegrationClient } from './client.js';
import { integrationReceiver, type IntegrationReceiver } from './receiver.js';

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

/**
 * A suite's run of the careful integration on `sandbox`: its receiver subscribed to every type,
 * three journeys at once, an hour on (retries go out, the token expires), all three read back, and
 * half an hour more. The receiver is the caller's to close.
 */
export async function carefulRun(
  sandbox: Pick<Sandbox, 'url' | 'apiKey' | 'apiSecret' | 'clock'>,
): Promise<{ client: IntegrationClient; receiver: IntegrationReceiver }> {
  const client = await integrationClient(sandbox.url, sandbox);
  const receiver = await integrationReceiver(await client.call('GET', '/webhooks/verification-key'));
  await client.call('PUT', '/webhooks', { callbackUrl: receiver.url, types: [...WEBHOOK_TYPES] });
  const journeys = await Promise.all(['ann', 'ben', 'cat'].map((name) => journey(client, name)));
  await sandbox.clock.advance('1h');
  await Promise.all(journeys.map((j) => lookBack(client, j)));
  await sandbox.clock.advance('30m');
  return { client, receiver };
}
