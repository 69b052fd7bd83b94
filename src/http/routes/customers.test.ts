import { parseSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_LENGTH } from '../../domain/formats.js';
import { T0, createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { expectShape } from '../../testing/wire.js';
import { Customer } from '../../wire/customer.js';
import { customer, eventsOf, testWallet } from '../../testing/world.js';

const HOUR = 3_600_000;
const decode = (challenge: string) => Buffer.from(challenge, 'base64').toString('utf8');
const create = (sb: TestSandbox, body: unknown) => sb.json('POST', '/v1/customers', { body });
const count = (sb: TestSandbox) => (sb.deps.store.sqlite.prepare('SELECT count(*) AS n FROM customers').get() as { n: number }).n;

describe('POST /v1/customers', () => {
  it('creates an initiating customer with an EIP-4361 challenge for its wallet', async () => {
    const sb = createTestSandbox();
    const wallet = testWallet('alice');
    const res = await create(sb, { chainId: wallet.chainId, externalId: 'alice-1' });
    expect(res.status).toBe(201);
    expectShape(res.body, Customer, ['challenge']);
    expect(res.body).toMatchObject({ externalId: 'alice-1', chainId: wallet.chainId, status: 'initiating', createdAt: '2026-03-01T09:00:00.000Z' });
    const message = parseSiweMessage(decode(res.body.challenge));
    expect(message).toMatchObject({ address: wallet.address, chainId: 11155111, version: '1' });
    expect(message.nonce).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(message.issuedAt?.getTime()).toBe(T0);
    expect(message.expirationTime?.getTime()).toBe(T0 + HOUR);
    expect(eventsOf(sb, res.body.id)).toEqual([
      { webhookType: 'customer.updated', eventId: expect.any(String), ...(await sb.json('GET', `/v1/customers/${res.body.id}`)).body },
    ]);
  });

  it('names every bad field at once', async () => {
    const sb = createTestSandbox();
    const res = await create(sb, { chainId: 'eip155:11155111:0x12', externalId: 42 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ title: 'Invalid request', code: 'invalid_request' });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['chainId', 'externalId']);
    expect((await create(sb, {})).body.errors.map((e: { path: string }) => e.path)).toEqual(['chainId', 'externalId']);
    expect(count(sb)).toBe(0);
  });

  it('takes any externalId the service does: empty, or hundreds of characters', async () => {
    const sb = createTestSandbox();
    for (const [i, externalId] of ['', 'x'.repeat(300), 'é'.repeat(MAX_TEXT_LENGTH)].entries()) {
      const res = await create(sb, { chainId: testWallet(`long-${i}`).chainId, externalId });
      expect(res.status).toBe(201);
      expect(res.body.externalId).toBe(externalId);
    }
  });

  it(`refuses an externalId over the sandbox's own ${MAX_TEXT_LENGTH} characters, naming it`, async () => {
    const sb = createTestSandbox();
    const res = await create(sb, { chainId: testWallet('huge').chainId, externalId: 'x'.repeat(MAX_TEXT_LENGTH + 1) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      title: 'Invalid request',
      code: 'invalid_request',
      errors: [{ path: 'externalId', message: `must be at most ${MAX_TEXT_LENGTH} characters` }],
    });
    expect(count(sb)).toBe(0);
  });

  it.each([
    ['a chain the sandbox does not run', 'eip155:1', 'eip155:1 is not supported here; GET /v1/chains'],
    ['a non-EVM chain', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'only eip155'],
  ])('refuses %s, pointing at GET /v1/chains', async (_, chain, message) => {
    const sb = createTestSandbox();
    const res = await create(sb, { chainId: `${chain}:${testWallet('x').address}`, externalId: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'chainId', message: expect.stringContaining(message) }]);
    expect(count(sb)).toBe(0);
  });

  it('refuses a wallet or an external id that is already registered (409)', async () => {
    const sb = createTestSandbox();
    const wallet = testWallet('bob');
    await create(sb, { chainId: wallet.chainId, externalId: 'bob' });
    const sameWallet = await create(sb, { chainId: wallet.chainId.toLowerCase(), externalId: 'bob-2' });
    expect(sameWallet.status).toBe(409);
    expect(sameWallet.body).toMatchObject({ title: 'Customer already exists', code: 'customer_already_exists' });
    expect(sameWallet.body.detail).toContain('chainId');
    const sameExternal = await create(sb, { chainId: testWallet('carol').chainId, externalId: 'bob' });
    expect(sameExternal.status).toBe(409);
    expect(sameExternal.body.detail).toContain('externalId bob');
    expect(count(sb)).toBe(1);
  });

  it('refuses a body that is not JSON', async () => {
    const sb = createTestSandbox();
    const res = await create(sb, '{"chainId":');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });
});

describe('GET /v1/customers and /v1/customers/{id}', () => {
  it('lists customers oldest first, each as GET returns it', async () => {
    const sb = createTestSandbox();
    const a = await customer(sb, { status: 'initiating' });
    sb.deps.clock.advanceTo(T0 + 1000);
    const b = await customer(sb, { status: 'initiating' });
    const list = await sb.json('GET', '/v1/customers');
    expect(list.status).toBe(200);
    expect(list.body.map((c: { id: string }) => c.id)).toEqual([a.customerId, b.customerId]);
    for (const item of list.body) expectShape(item, Customer);
    expect((await sb.json('GET', `/v1/customers/${a.customerId}`)).body).toEqual(list.body[0]);
  });

  it('answers 404 for an unknown id and 400 for one that is not a UUID', async () => {
    const sb = createTestSandbox();
    const missing = await sb.json('GET', '/v1/customers/3b241101-e2bb-4255-8caf-4136c566a962');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ title: 'Customer not found', code: 'customer_not_found' });
    const bad = await sb.json('GET', '/v1/customers/42');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: 'customerId', message: 'must be a UUID' }]);
  });
});

describe('GET /v1/customers/{id}/challenge', () => {
  it('serves the current challenge for an hour, then a fresh one', async () => {
    const sb = createTestSandbox();
    const { customerId, challenge } = await customer(sb, { status: 'initiating' });
    sb.deps.clock.advanceTo(T0 + HOUR - 1);
    expect((await sb.json('GET', `/v1/customers/${customerId}/challenge`)).body).toEqual({ challenge });
    sb.deps.clock.advanceTo(T0 + HOUR);
    const fresh = (await sb.json('GET', `/v1/customers/${customerId}/challenge`)).body.challenge;
    expect(fresh).not.toBe(challenge);
    expect(parseSiweMessage(decode(fresh)).issuedAt?.getTime()).toBe(T0 + HOUR);
    expect(eventsOf(sb, customerId)).toHaveLength(1);
  });

  it('answers 404 for an unknown customer', async () => {
    const sb = createTestSandbox();
    expect((await sb.json('GET', '/v1/customers/3b241101-e2bb-4255-8caf-4136c566a962/challenge')).status).toBe(404);
  });
});
