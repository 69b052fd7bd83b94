/**
 * GET /_sandbox/world and /_sandbox/world/counts (docs/control-plane.md: Time travel and the control plane): the
 * programme's resources as one tree, each exactly as GET /v1 returns it, its webhooks, and the
 * counts; nothing of another programme; the usual refusals of the control plane.
 */
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../../testing/harness.js';
import { DEAD_CALLBACK } from '../../testing/hostile-world.js';

const UNKNOWN = '3b241101-e2bb-4255-8caf-4136c566a962';

/** A seeded world: one customer with an account and an active card, one waiting for KYC, one webhook. */
async function seeded() {
  const sb = createTestSandbox();
  const seed = await sb.json('POST', '/_sandbox/seed', {
    token: false,
    body: {
      webhooks: [{ callbackUrl: DEAD_CALLBACK, types: ['card.updated'] }],
      customers: [
        { externalId: 'alice', accounts: [{ currencies: ['EUR'], cards: [{ status: 'terminated' }, {}] }] },
        { externalId: 'carol', status: 'initiating' },
      ],
    },
  });
  expect(seed.status).toBe(201);
  const alice = seed.body.customers[0];
  return { sb, alice, cardId: alice.accounts[0].cards[1].id as string, carolId: seed.body.customers[1].id as string };
}

describe('GET /_sandbox/world', () => {
  it('answers customers → accounts → cards → authorisations and transactions, each as the API shows it, and the webhooks', async () => {
    const { sb, alice, cardId, carolId } = await seeded();
    const mirror = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox/simulator${path}`, { token: false, body });
    const held = await mirror('POST', `/cards/${cardId}/authorisation`, { amount: '5', currency: 'EUR', capture: false });
    await mirror('POST', `/cards/${cardId}/authorisation`, { amount: '7.5', currency: 'USD' });
    await sb.json('POST', '/_sandbox/clock/advance', { token: false, body: { by: '5s' } });

    const world = await sb.json('GET', '/_sandbox/world', { token: false });
    expect(world.status).toBe(200);
    expect(world.body.webhooks).toEqual((await sb.json('GET', '/v1/webhooks')).body);
    expect(world.body.customers.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      [alice.id, 'active'],
      [carolId, 'initiating'],
    ]);
    const [customer] = world.body.customers;
    const { accounts, ...bare } = customer;
    expect(bare).toEqual((await sb.json('GET', `/v1/customers/${alice.id}`)).body);
    const [{ cards, ...account }] = accounts;
    expect(account).toEqual((await sb.json('GET', `/v1/accounts/${alice.accounts[0].id}`)).body);
    expect(cards.map((c: { status: string }) => c.status)).toEqual(['terminated', 'active']);
    const [, { authorisations, transactions, ...card }] = cards;
    expect(card).toEqual((await sb.json('GET', `/v1/cards/${cardId}`)).body);
    expect(authorisations.map((a: { id: string; status: string }) => a.status)).toEqual(['pending', 'captured']);
    expect(authorisations[0]).toEqual((await sb.json('GET', `/v1/authorisations/${held.body.id}`)).body);
    expect(transactions).toEqual((await sb.json('GET', `/v1/cards/${cardId}/transactions`)).body);
    expect(transactions).toHaveLength(1);
    expect(cards[0]).toMatchObject({ authorisations: [], transactions: [] });
    expect(world.body.customers[1].accounts).toEqual([]);
  });

  it('counts each kind of resource, the events and the deliveries by state', async () => {
    const { sb } = await seeded();
    const counts = await sb.json('GET', '/_sandbox/world/counts', { token: false });
    expect(counts.status).toBe(200);
    const events = (await sb.json('GET', '/_sandbox/events?limit=1000', { token: false })).body;
    const pending = events.flatMap((e: { deliveries: unknown[] }) => e.deliveries).length;
    expect(counts.body).toEqual({
      customers: 2,
      accounts: 1,
      cards: 2,
      authorisations: 0,
      transactions: 0,
      webhooks: 1,
      events: events.length,
      deliveries: { pending, delivered: 0, discarded: 0 },
    });
    expect(pending).toBeGreaterThan(0);
  });

  it('shows only the programme named, and an empty world for a new one', async () => {
    const { sb } = await seeded();
    const other = await sb.json('POST', '/_sandbox/programmes', { token: false, body: {} });
    expect((await sb.json('GET', `/_sandbox/world?programme=${other.body.id}`, { token: false })).body).toEqual({ webhooks: [], customers: [] });
    const counts = await sb.json('GET', '/_sandbox/world/counts', { token: false, headers: { 'Sandbox-Programme': other.body.id } });
    expect(counts.body).toEqual({
      customers: 0,
      accounts: 0,
      cards: 0,
      authorisations: 0,
      transactions: 0,
      webhooks: 0,
      events: 0,
      deliveries: { pending: 0, delivered: 0, discarded: 0 },
    });
  });

  it.each(['/_sandbox/world', '/_sandbox/world/counts'])('refuses %s for a malformed or unknown programme, and without the admin token', async (path) => {
    const sb = createTestSandbox({ adminToken: 'tok' });
    const auth = { token: 'tok' as const };
    expect((await sb.json('GET', path, { token: false })).body).toMatchObject({ status: 401, code: 'not_authorised' });
    const malformed = await sb.json('GET', `${path}?programme=nope`, auth);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'invalid_request', errors: [{ path: 'programme' }] });
    expect((await sb.json('GET', path, { ...auth, headers: { 'Sandbox-Programme': UNKNOWN } })).body).toMatchObject({
      status: 404,
      code: 'programme_not_found',
    });
    const post = await sb.json('POST', path, auth);
    expect(post.body).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(post.headers.get('Allow')).toBe('GET, HEAD');
  });
});
