// cards.test.ts: a programme per test file, its own world, credentials and clock, whatever the other files do.
import { createSandbox } from 'card-sandbox';
import { afterAll, expect, inject, test } from 'vitest';

const sandbox = await createSandbox({ url: inject('cardSandboxUrl'), clock: '2026-01-01T00:00:00Z' });
afterAll(() => sandbox.close());

test('a month later, in this file only', async () => {
  await sandbox.clock.advance('30d');
  expect(await sandbox.clock.now()).toEqual(new Date('2026-01-31T00:00:00Z'));
});

test('a customer signs up', async () => {
  const wallet = sandbox.wallet();
  const customer = await sandbox.client.createCustomer({ chainId: wallet.chainId, externalId: 'alice' });
  await sandbox.client.signCustomerChallenge(customer.id, wallet.signChallenge(customer.challenge));
  const verifying = await sandbox.events.waitFor('customer.updated', (c) => c.status === 'verifying');
  expect(verifying.entityId).toBe(customer.id);
});
