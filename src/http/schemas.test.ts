import { describe, expect, test } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { activeCustomer } from '../testing/world.js';

describe('path ids', () => {
  test('an id in upper case finds the same resource', async () => {
    const sb = createTestSandbox();
    const { customerId } = await activeCustomer(sb);
    const res = await sb.json('GET', `/v1/customers/${customerId.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(customerId);
  });

  test('an id that is not a UUID is a 400 naming the parameter, not a 404', async () => {
    const sb = createTestSandbox();
    const res = await sb.json('GET', '/v1/customers/not-a-uuid');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.errors).toEqual([{ path: 'customerId', message: 'must be a UUID' }]);
  });
});
