/**
 * The API fault lab from a test (docs/api-faults.md: The API fault lab): `sandbox.faults.api` sets the rules of
 * the sandbox's own programme, and the API client meets them as an integrator's would.
 */
import { afterAll, expect, test } from 'vitest';
import { ApiError } from '../client/create-client.js';
import { createSandbox } from './create-sandbox.js';

const sandbox = await createSandbox({ clock: '2026-01-01T09:00:00Z' });
afterAll(() => sandbox.close());

test('sets, shows and clears the rules; the client meets a 503 and then goes through', async () => {
  const { client, faults } = sandbox;
  const wallet = sandbox.wallet();
  const set = await faults.api.set([{ match: { operationId: 'createCustomer' }, status: 503, times: 1 }]);
  expect(set.rules).toEqual([{ match: { operationId: 'createCustomer' }, status: 503, effect: 'before', rate: 1, times: 1, remaining: 1, hits: 0 }]);
  const refused = await client.createCustomer({ chainId: wallet.chainId, externalId: 'alice' }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ApiError);
  expect((refused as ApiError).status).toBe(503);
  const customer = await client.createCustomer({ chainId: wallet.chainId, externalId: 'alice' });
  expect(customer.status).toBe('initiating');
  expect((await faults.api.get()).rules[0]).toMatchObject({ remaining: 0, hits: 1 });
  await faults.api.clear();
  expect(await faults.api.get()).toEqual({ rules: [] });
});

test('an expired token is answered 401, and the client gets a new one and carries on', async () => {
  await sandbox.faults.api.set({ rules: [{ expireToken: true, times: 1 }] });
  expect(await sandbox.client.getCustomers()).toHaveLength(1);
  expect((await sandbox.faults.api.get()).rules[0]).toMatchObject({ hits: 1 });
  const requests = (await (await fetch(`${sandbox.url}/_sandbox/requests`, { headers: { 'Sandbox-Programme': sandbox.programme } })).json()) as {
    path: string;
    status: number;
    fault?: object;
  }[];
  expect(requests.slice(0, 3).map((r) => [r.path, r.status, r.fault !== undefined])).toEqual([
    ['/v1/customers', 200, false],
    ['/v1/auth/token', 200, false],
    ['/v1/customers', 401, true],
  ]);
});
