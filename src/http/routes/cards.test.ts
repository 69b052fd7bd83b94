import { describe, expect, it } from 'vitest';
import { T0, createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { expectShape } from '../../testing/wire.js';
import { Address } from '../../domain/address.js';
import { MAX_TEXT_LENGTH } from '../../domain/formats.js';
import { Card } from '../../wire/card.js';
import { BILLING_ADDRESS, activeAccount, eventsOf, issuedCard, pendingAccount } from '../../testing/world.js';

const UNKNOWN = '3b241101-e2bb-4255-8caf-4136c566a962';
const create = (sb: TestSandbox, accountId: string, body: unknown) => sb.json('POST', `/v1/accounts/${accountId}/cards`, { body });
const status = async (sb: TestSandbox, id: string) => (await sb.json('GET', `/v1/cards/${id}`)).body.status;
const count = (sb: TestSandbox) => (sb.deps.store.sqlite.prepare('SELECT count(*) AS n FROM cards').get() as { n: number }).n;
const virtual = { type: 'virtual', billingAddress: BILLING_ADDRESS };

describe('POST /v1/accounts/{id}/cards', () => {
  it('creates an issuing card with no name, network, PAN or expiry yet', async () => {
    const sb = createTestSandbox();
    const { accountId } = await activeAccount(sb);
    const billingAddress = { postCode: 'NW6 2FG', country: 'GB', city: 'London', secondLine: '321 West End Lane', firstLine: 'Flat G', extra: 'ignored' };
    const res = await create(sb, accountId, { type: 'virtual', billingAddress, shippingAddress: BILLING_ADDRESS });
    expect(res.status).toBe(201);
    expectShape(res.body, Card);
    expectShape(res.body.billingAddress, Address);
    expect(res.body).toMatchObject({ accountId, type: 'virtual', status: 'issuing' });
    expect(Object.keys(res.body.billingAddress)).toEqual(['firstLine', 'secondLine', 'city', 'country', 'postCode']);
    for (const field of ['name', 'network', 'maskedPan', 'expirationDate', 'shippingAddress']) expect(res.body).not.toHaveProperty(field);
    expect(eventsOf(sb, res.body.id)).toEqual([{ webhookType: 'card.updated', eventId: expect.any(String), ...res.body }]);
  });

  it('names every bad field at once', async () => {
    const sb = createTestSandbox();
    const { accountId } = await activeAccount(sb);
    const res = await create(sb, accountId, { type: 'virtual', billingAddress: { firstLine: 'Flat G', city: null, country: 'UK', postCode: 'N1' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ title: 'Invalid request', code: 'invalid_request' });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['billingAddress.city', 'billingAddress.country']);
    const empty = await create(sb, accountId, { type: 'plastic' });
    expect(empty.body.errors.map((e: { path: string }) => e.path)).toEqual(['type', 'billingAddress']);
    const partial = await create(sb, accountId, { type: 'virtual', billingAddress: {}, shippingAddress: { firstLine: 1 } });
    expect(partial.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'billingAddress.firstLine',
      'billingAddress.city',
      'billingAddress.country',
      'billingAddress.postCode',
      'shippingAddress.firstLine',
      'shippingAddress.city',
      'shippingAddress.country',
      'shippingAddress.postCode',
    ]);
    expect(count(sb)).toBe(0);
  });

  it('takes any address text the service does: a 40-character postCode, empty lines, long ones', async () => {
    const sb = createTestSandbox();
    const addresses = [
      { ...BILLING_ADDRESS, postCode: 'P'.repeat(40) },
      { firstLine: '', secondLine: '', city: '', state: '', country: 'GB', postCode: '' },
      { firstLine: 'a'.repeat(MAX_TEXT_LENGTH), city: 'b'.repeat(300), state: 'c'.repeat(300), country: 'GB', postCode: 'd'.repeat(MAX_TEXT_LENGTH) },
    ];
    for (const billingAddress of addresses) {
      const { accountId } = await activeAccount(sb);
      const res = await create(sb, accountId, { type: 'virtual', billingAddress });
      expect(res.status).toBe(201);
      expect(res.body.billingAddress).toEqual(billingAddress);
    }
  });

  it(`refuses address text over the sandbox's own ${MAX_TEXT_LENGTH} characters, naming each field`, async () => {
    const sb = createTestSandbox();
    const { accountId } = await activeAccount(sb);
    const long = 'x'.repeat(MAX_TEXT_LENGTH + 1);
    const res = await create(sb, accountId, {
      type: 'virtual',
      billingAddress: { ...BILLING_ADDRESS, postCode: long },
      shippingAddress: { ...BILLING_ADDRESS, firstLine: long, state: long },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ title: 'Invalid request', code: 'invalid_request' });
    expect(res.body.errors).toEqual(
      ['billingAddress.postCode', 'shippingAddress.firstLine', 'shippingAddress.state'].map((path) => ({
        path,
        message: `must be at most ${MAX_TEXT_LENGTH} characters`,
      })),
    );
    expect(count(sb)).toBe(0);
  });

  it('needs an active customer and an active account', async () => {
    const sb = createTestSandbox();
    const pending = await pendingAccount(sb);
    expect((await create(sb, pending.accountId, virtual)).body).toMatchObject({ status: 400, code: 'account_not_active' });
    const active = await activeAccount(sb);
    await sb.json('PATCH', `/v1/customers/${active.customerId}/deactivate`);
    expect((await create(sb, active.accountId, virtual)).body).toMatchObject({ status: 400, code: 'customer_not_active' });
    expect((await create(sb, UNKNOWN, virtual)).body).toMatchObject({ status: 404, code: 'account_not_found' });
    expect(count(sb)).toBe(0);
  });

  it('allows one live virtual card per account', async () => {
    const sb = createTestSandbox();
    const { accountId } = await activeAccount(sb);
    const first = (await create(sb, accountId, virtual)).body;
    const refused = await create(sb, accountId, virtual);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('card_limit_reached');
    await sb.json('PATCH', `/v1/simulator/cards/${first.id}/fail`);
    const second = (await create(sb, accountId, virtual)).body;
    expect(second.status).toBe('issuing');
    await sb.json('PATCH', `/v1/simulator/cards/${second.id}/issue`);
    await sb.json('PATCH', `/v1/cards/${second.id}/deactivate`);
    expect((await create(sb, accountId, virtual)).body.code).toBe('card_limit_reached');
    await sb.request('DELETE', `/v1/cards/${second.id}`);
    expect((await create(sb, accountId, virtual)).status).toBe(201);
  });

  it('refuses physical cards unless they are enabled', async () => {
    const sb = createTestSandbox();
    const { accountId } = await activeAccount(sb);
    const res = await create(sb, accountId, { type: 'physical', billingAddress: BILLING_ADDRESS, shippingAddress: BILLING_ADDRESS });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('physical_cards_unsupported');
    expect(res.body.detail).toContain('--physical-cards');
    expect(count(sb)).toBe(0);
  });

  it('with physical cards enabled, needs a shipping address and allows one physical next to one virtual', async () => {
    const sb = createTestSandbox({ physicalCards: true });
    const { accountId } = await activeAccount(sb);
    const unshipped = await create(sb, accountId, { type: 'physical', billingAddress: BILLING_ADDRESS });
    expect(unshipped.body).toMatchObject({ code: 'invalid_request', errors: [{ path: 'shippingAddress', message: 'required for physical cards' }] });
    const physical = await create(sb, accountId, { type: 'physical', billingAddress: BILLING_ADDRESS, shippingAddress: BILLING_ADDRESS });
    expect(physical.status).toBe(201);
    expect(physical.body).not.toHaveProperty('shippingAddress');
    expect((await create(sb, accountId, virtual)).status).toBe(201);
    expect((await create(sb, accountId, { type: 'physical', billingAddress: BILLING_ADDRESS, shippingAddress: BILLING_ADDRESS })).body.code).toBe(
      'card_limit_reached',
    );
  });
});

describe('GET /v1/cards, /v1/cards/{id}, /v1/accounts/{id}/cards', () => {
  it('list oldest first and per account', async () => {
    const sb = createTestSandbox({ physicalCards: true });
    const a = await issuedCard(sb);
    const b = await issuedCard(sb, { account: a, type: 'physical' });
    const c = await issuedCard(sb);
    const all = (await sb.json('GET', '/v1/cards')).body;
    expect(all.map((x: { id: string }) => x.id)).toEqual([a.cardId, b.cardId, c.cardId]);
    for (const card of all) expectShape(card, Card);
    expect((await sb.json('GET', `/v1/accounts/${a.accountId}/cards`)).body.map((x: { id: string }) => x.id)).toEqual([a.cardId, b.cardId]);
    expect((await sb.json('GET', `/v1/accounts/${UNKNOWN}/cards`)).body.code).toBe('account_not_found');
    expect((await sb.json('GET', `/v1/cards/${UNKNOWN}`)).body).toMatchObject({ status: 404, title: 'Card not found', code: 'card_not_found' });
    expect((await sb.json('GET', '/v1/cards/123')).status).toBe(400);
  });
});

describe('deactivate, activate and DELETE', () => {
  it('toggle an active card and answer the card', async () => {
    const sb = createTestSandbox();
    const { cardId } = await issuedCard(sb);
    const off = await sb.json('PATCH', `/v1/cards/${cardId}/deactivate`);
    expect(off.status).toBe(200);
    expectShape(off.body, Card);
    expect(off.body.status).toBe('inactive');
    expect((await sb.json('PATCH', `/v1/cards/${cardId}/activate`)).body.status).toBe('active');
    expect(eventsOf(sb, cardId).map((e) => e.status)).toEqual(['issuing', 'active', 'inactive', 'active']);
  });

  it('refuse cards in other states with 409, and unknown cards with card_not_found', async () => {
    const sb = createTestSandbox();
    const { cardId } = await issuedCard(sb, { status: 'issuing' });
    for (const action of ['deactivate', 'activate']) {
      const res = await sb.json('PATCH', `/v1/cards/${cardId}/${action}`);
      expect(res.status).toBe(409);
      expect(res.body.detail).toContain('issuing');
      expect((await sb.json('PATCH', `/v1/cards/${UNKNOWN}/${action}`)).body.code).toBe('card_not_found');
    }
    expect((await sb.json('DELETE', `/v1/cards/${cardId}`)).status).toBe(409);
    expect((await sb.json('DELETE', `/v1/cards/${UNKNOWN}`)).status).toBe(404);
    expect(eventsOf(sb, cardId)).toHaveLength(1);
  });

  it('terminates an active or inactive card for good (204)', async () => {
    const sb = createTestSandbox();
    const { cardId } = await issuedCard(sb);
    expect((await sb.request('DELETE', `/v1/cards/${cardId}`)).status).toBe(204);
    expect(await status(sb, cardId)).toBe('terminated');
    for (const [method, path] of [
      ['DELETE', ''],
      ['PATCH', '/activate'],
      ['PATCH', '/deactivate'],
    ] as const) {
      expect((await sb.json(method, `/v1/cards/${cardId}${path}`)).status).toBe(409);
    }
    const other = await issuedCard(sb);
    await sb.json('PATCH', `/v1/cards/${other.cardId}/deactivate`);
    expect((await sb.request('DELETE', `/v1/cards/${other.cardId}`)).status).toBe(204);
  });

  it('refuses to activate a card whose account is inactive', async () => {
    const sb = createTestSandbox();
    const { cardId, accountId } = await issuedCard(sb);
    await sb.json('PATCH', `/v1/cards/${cardId}/deactivate`);
    await sb.json('PATCH', `/v1/accounts/${accountId}/deactivate`);
    expect((await sb.json('PATCH', `/v1/cards/${cardId}/activate`)).body).toMatchObject({ status: 400, code: 'account_not_active' });
  });
});

describe('expiry', () => {
  it('terminates the card when the sandbox clock passes the end of its expiry month', async () => {
    const sb = createTestSandbox();
    const { cardId } = await issuedCard(sb);
    const card = (await sb.json('GET', `/v1/cards/${cardId}`)).body;
    expect(card.expirationDate).toBe('03/2029');
    const end = Date.parse('2029-04-01T00:00:00.000Z');
    // Three years on, the harness token has expired: read through the service.
    await sb.deps.services.scheduler.advance(end - 1);
    expect(sb.deps.services.cards.get(cardId).status).toBe('active');
    await sb.deps.services.scheduler.advance(end);
    const expired = sb.deps.services.cards.get(cardId);
    expect(expired).toMatchObject({ status: 'terminated', updatedAt: '2029-04-01T00:00:00.000Z' });
    expect(eventsOf(sb, cardId).map((e) => e.status)).toEqual(['issuing', 'active', 'terminated']);
  });

  it('does nothing more to a card terminated before it expired', async () => {
    const sb = createTestSandbox();
    const { cardId } = await issuedCard(sb);
    await sb.request('DELETE', `/v1/cards/${cardId}`);
    expect(sb.deps.services.jobs.pending(cardId)).toEqual([]);
    await sb.deps.services.scheduler.advance(T0 + 4 * 365 * 86_400_000);
    expect(eventsOf(sb, cardId)).toHaveLength(3);
  });
});

describe('onPayments', () => {
  it('hears every termination inside its transaction: DELETE, account close and expiry', async () => {
    const sb = createTestSandbox();
    const heard: { cardId: string; now: number; status: string }[] = [];
    sb.deps.services.cards.onPayments((change, cardId, now) => {
      // Inside the transaction the card already reads as terminated.
      const row = sb.deps.store.sqlite.prepare('SELECT status FROM cards WHERE id = ?').get(cardId) as { status: string };
      heard.push({ cardId, now, status: `${change} ${row.status}` });
    });
    const deleted = await issuedCard(sb);
    await sb.request('DELETE', `/v1/cards/${deleted.cardId}`);
    const closed = await issuedCard(sb);
    await sb.request('DELETE', `/v1/accounts/${closed.accountId}`);
    const expiring = await issuedCard(sb);
    await sb.deps.services.scheduler.advance(Date.parse('2029-04-01T00:00:00.000Z'));
    expect(heard.map((h) => h.cardId)).toEqual([deleted.cardId, closed.cardId, expiring.cardId]);
    expect(heard.every((h) => h.status === 'stopped terminated')).toBe(true);
    expect(heard[2]!.now).toBe(Date.parse('2029-04-01T00:00:00.000Z'));
  });

  it('a listener that throws undoes the termination', async () => {
    const sb = createTestSandbox();
    sb.deps.services.cards.onPayments(() => {
      throw new Error('listener failed');
    });
    const { cardId } = await issuedCard(sb);
    const res = await sb.json('DELETE', `/v1/cards/${cardId}`);
    expect(res.status).toBe(500);
    expect(await status(sb, cardId)).toBe('active');
    expect(eventsOf(sb, cardId)).toHaveLength(2);
  });
});
