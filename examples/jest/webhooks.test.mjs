// webhooks.test.mjs: another file, another programme, a webhook receiver.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createSandbox } from 'card-sandbox';

let sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ url: process.env.CARD_SANDBOX_URL });
});
afterAll(() => sandbox.close());

test('every webhook arrives signed, and is verified', async () => {
  const hooks = await sandbox.webhooks.receiver({ types: ['customer.updated'] });
  const customer = await sandbox.client.createCustomer({ chainId: sandbox.wallet().chainId, externalId: 'bob' });
  const created = await hooks.waitFor('customer.updated', (c) => c.id === customer.id);
  expect(created.status).toBe('initiating');
  expect(hooks.refused).toEqual([]);
});
