// customers.test.ts: another file, another programme.
import { createSandbox } from 'card-sandbox';
import { afterAll, expect, inject, test } from 'vitest';

const sandbox = await createSandbox({ url: inject('cardSandboxUrl') });
afterAll(() => sandbox.close());

test('the same externalId as in the other file: another programme, no conflict', async () => {
  const customer = await sandbox.client.createCustomer({ chainId: sandbox.wallet().chainId, externalId: 'alice' });
  expect(await sandbox.client.getCustomers()).toEqual([expect.objectContaining({ id: customer.id })]);
});
