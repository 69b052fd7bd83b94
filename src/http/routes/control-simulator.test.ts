import { describe, expect, it } from 'vitest';
import type { Config } from '../../config/index.js';
import { createTestSandbox } from '../../testing/harness.js';

const UNKNOWN = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** A sandbox in strict verification mode (no /v1 request could pass unsigned) with a seeded world. */
async function world(config: Partial<Config> = {}) {
  const sb = createTestSandbox({ verify: 'strict', ...config });
  const seeded = await sb.json('POST', '/_sandbox/seed', {
    token: false,
    headers: config.adminToken ? { Authorization: `Bearer ${config.adminToken}` } : {},
    body: {
      customers: [
        { externalId: 'pending-kyc', status: 'initiating' },
        { externalId: 'ready', accounts: [{ currencies: ['EUR'], cards: [{ status: 'issuing' }] }] },
      ],
    },
  });
  const [pending, ready] = seeded.body.customers;
  const mirror = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox/simulator${path}`, { token: false, body });
  return { sb, mirror, pendingCustomer: pending.id as string, cardId: ready.accounts[0].cards[0].id as string };
}

describe('/_sandbox/simulator mirror', () => {
  it('verifies a customer and issues a card without token, signature or idempotency key', async () => {
    const { sb, mirror, pendingCustomer, cardId } = await world();
    const verified = await mirror('PATCH', `/customers/${pendingCustomer}/verify`);
    expect(verified.status).toBe(202);
    expect(verified.body).toBeUndefined();
    expect(sb.deps.services.customers.get(pendingCustomer).status).toBe('active');
    expect((await mirror('PATCH', `/cards/${cardId}/issue`)).status).toBe(202);
    expect(sb.deps.services.cards.get(cardId).status).toBe('active');
  });

  it('authorises, and captures or releases a held authorisation', async () => {
    const { sb, mirror, cardId } = await world();
    await mirror('PATCH', `/cards/${cardId}/issue`);
    const held = await mirror('POST', `/cards/${cardId}/authorisation`, { amount: '12.50', currency: 'EUR', capture: false });
    expect(held.status).toBe(201);
    expect(held.body).toMatchObject({ status: 'pending', amount: '12.5', currency: 'EUR', merchant: { name: 'Test Merchant' } });
    expect((await mirror('PATCH', `/authorisations/${held.body.id}/release`)).status).toBe(202);
    const second = await mirror('POST', `/cards/${cardId}/authorisation`, { amount: '3', currency: 'EUR', capture: false });
    expect((await mirror('PATCH', `/authorisations/${second.body.id}/capture`)).status).toBe(202);
    await sb.json('POST', '/_sandbox/clock/advance', { token: false, body: { by: '10s' } });
    expect(sb.deps.services.authorisations.get(held.body.id).status).toBe('released');
    expect(sb.deps.services.authorisations.get(second.body.id).status).toBe('captured');
  });

  it('answers the same refusals as /v1/simulator', async () => {
    const { mirror, cardId } = await world();
    const missing = await mirror('PATCH', `/customers/${UNKNOWN}/verify`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ title: 'Customer not found', code: 'customer_not_found' });
    const malformed = await mirror('PATCH', '/cards/nope/issue');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].path).toBe('cardId');
    const notActive = await mirror('POST', `/cards/${cardId}/authorisation`, { amount: '1', currency: 'EUR' });
    expect(notActive.status).toBe(400);
    expect(notActive.body.code).toBe('card_not_active');
    const badBody = await mirror('POST', `/cards/${cardId}/authorisation`, { amount: 12, currency: 'EUR' });
    expect(badBody.status).toBe(400);
    expect(badBody.body.errors.map((e: { path: string }) => e.path)).toContain('amount');
  });

  it('requires the admin token when one is set', async () => {
    const { mirror, pendingCustomer } = await world({ adminToken: 'letmein' });
    const res = await mirror('PATCH', `/customers/${pendingCustomer}/verify`);
    expect(res.status).toBe(401);
  });

  it('is absent in the production environment, and absent from /openapi.json', async () => {
    const prod = createTestSandbox({ env: 'production' });
    const res = await prod.json('PATCH', `/_sandbox/simulator/customers/${UNKNOWN}/verify`, { token: false });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('route_not_found');
    const sb = createTestSandbox();
    const doc = await sb.json('GET', '/openapi.json', { token: false });
    expect(Object.keys(doc.body.paths).filter((p) => p.startsWith('/_sandbox'))).toEqual([]);
    expect(Object.keys(doc.body.paths)).toContain('/simulator/customers/{customerId}/verify');
  });
});
