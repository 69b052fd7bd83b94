import { describe, expect, it } from 'vitest';
import { readFixture } from '../../kernel/fixtures.js';
import { accounts, cards, customers, events, webhooks } from '../../store/schema.js';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { openApiSchemas } from '../../testing/openapi-schemas.js';

const WALLET = 'eip155:11155111:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

const seed = (sb: TestSandbox, body: unknown) => sb.json('POST', '/_sandbox/seed', { body, token: false });

const counts = (sb: TestSandbox) => {
  const { db } = sb.deps.store;
  return {
    customers: db.select().from(customers).all().length,
    accounts: db.select().from(accounts).all().length,
    cards: db.select().from(cards).all().length,
    webhooks: db.select().from(webhooks).all().length,
    events: db.select().from(events).all().length,
  };
};

describe('POST /_sandbox/seed', () => {
  it('loads customers, accounts, cards and webhooks in their target states, through the API-visible services', async () => {
    const sb = createTestSandbox();
    const res = await seed(sb, {
      webhooks: [{ callbackUrl: 'http://127.0.0.1:9/hooks', types: ['card.updated'] }],
      customers: [
        {
          externalId: 'alice',
          chainId: WALLET,
          accounts: [
            {
              currencies: ['EUR', 'USD'],
              cards: [{ status: 'issue_failed' }, { billingAddress: { firstLine: '2 Main St', city: 'Paris', country: 'FR', postCode: '75001' } }],
            },
            { currencies: ['GBP'], status: 'inactive', cards: [{}] },
            { currencies: ['EUR'], status: 'pending' },
          ],
        },
        { externalId: 'bob', status: 'initiating' },
        { externalId: 'carol', status: 'rejected' },
        { externalId: 'dave', status: 'inactive', accounts: [{ currencies: ['EUR'], cards: [{ status: 'issuing' }] }] },
      ],
    });
    expect(res.status).toBe(201);
    const [alice, bob, carol, dave] = res.body.customers;
    expect(res.body.webhooks).toEqual([{ id: expect.any(String), callbackUrl: 'http://127.0.0.1:9/hooks' }]);
    expect(alice).toMatchObject({ externalId: 'alice', status: 'active' });
    expect(alice.accounts.map((a: { status: string }) => a.status)).toEqual(['active', 'inactive', 'pending']);
    expect(alice.accounts[0].cards.map((c: { status: string }) => c.status)).toEqual(['issue_failed', 'active']);
    // The account's deactivation cascades onto its active card.
    expect(alice.accounts[1].cards.map((c: { status: string }) => c.status)).toEqual(['inactive']);
    expect([bob.status, carol.status, dave.status]).toEqual(['initiating', 'rejected', 'inactive']);
    expect(dave.accounts[0]).toMatchObject({ status: 'inactive', cards: [{ status: 'issuing' }] });

    // What was loaded is what the API serves.
    const card = await sb.json('GET', `/v1/cards/${alice.accounts[0].cards[1].id}`);
    expect(card.body).toMatchObject({ status: 'active', network: 'visa', billingAddress: { city: 'Paris', country: 'FR' } });
    const customer = await sb.json('GET', `/v1/customers/${alice.id}`);
    expect(customer.body.chainId).toBe(WALLET);
    const account = await sb.json('GET', `/v1/accounts/${alice.accounts[0].id}`);
    expect(account.body.chainId).toMatch(/^eip155:11155111:0x[0-9a-fA-F]{40}$/);

    // Every change emitted its event, and the seeded webhook was subscribed to card events.
    const cardEvents = await sb.json('GET', `/_sandbox/events?entityId=${alice.accounts[0].cards[1].id}`, { token: false });
    expect(cardEvents.body.map((e: { type: string }) => e.type)).toEqual(['card.updated', 'card.updated']);
    expect(cardEvents.body[0].deliveries).toHaveLength(1);
  });

  it('gives a customer without chainId a wallet on a supported chain', async () => {
    const sb = createTestSandbox();
    const res = await seed(sb, { customers: [{ externalId: 'x' }] });
    const customer = await sb.json('GET', `/v1/customers/${res.body.customers[0].id}`);
    expect(customer.body.chainId).toMatch(/^eip155:300:0x[0-9a-f]{40}$/);
  });

  it('says in its schema which chainIds and currencies it takes: exactly those it loads, refused whole otherwise', async () => {
    const sb = createTestSandbox();
    const document = (await sb.json('GET', '/_sandbox/openapi.json', { token: false })).body;
    const schema = document.paths['/_sandbox/seed'].post.requestBody.content['application/json'].schema;
    const customer = schema.properties.customers.items.properties;
    const chainId = new RegExp(customer.chainId.pattern);
    const currency = new RegExp(customer.accounts.items.properties.currencies.items.pattern);
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const wallets = [`eip155:11155111:${address}`, `eip155:300:${address}`, `eip155:1:${address}`, `cosmos:cosmoshub-4:${address}`, 'eip155:11155111:0x12'];
    for (const [i, wallet] of wallets.entries()) {
      const res = await seed(sb, { customers: [{ externalId: `wallet-${i}`, chainId: wallet }] });
      expect([wallet, res.status]).toEqual([wallet, chainId.test(wallet) ? 201 : 400]);
      if (res.status === 400) expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['customers[0].chainId']);
    }
    for (const [i, code] of ['EUR', 'GBP', 'JPY', 'eur'].entries()) {
      const res = await seed(sb, { customers: [{ externalId: `currency-${i}`, accounts: [{ currencies: [code] }] }] });
      expect([code, res.status]).toEqual([code, currency.test(code) ? 201 : 400]);
    }
    expect(customer.accounts.items.properties.currencies.uniqueItems).toBe(true);
    expect(counts(sb).customers).toBe(4);
  });

  it("takes exactly the payments its document's schema allows: a currency with a rate, at most its minor-unit digits", async () => {
    const sb = createTestSandbox();
    const schemas = openApiSchemas((await sb.json('GET', '/_sandbox/openapi.json', { token: false })).body);
    const payments: [string, string][] = [
      ['12.5', 'USD'],
      ['12.505', 'USD'],
      ['5', 'XXX'],
      ['100', 'JPY'],
      ['1.5', 'JPY'],
      ['0', 'EUR'],
    ];
    for (const [i, [amount, currency]] of payments.entries()) {
      const body = { customers: [{ externalId: `payer-${i}`, accounts: [{ currencies: ['EUR'], cards: [{ authorisations: [{ amount, currency }] }] }] }] };
      const allowed = schemas.request('POST', '/_sandbox/seed', body).length === 0;
      const res = await seed(sb, body);
      expect([amount, currency, res.status]).toEqual([amount, currency, allowed ? 201 : 400]);
      if (!allowed) expect(res.body.errors[0].path).toMatch(/^customers\[0\]\.accounts\[0\]\.cards\[0\]\.authorisations\[0\]\.(amount|currency)$/);
    }
    expect(counts(sb).customers).toBe(2);
  });

  it('a pending account is deployed 2 s later, like one whose challenge was signed', async () => {
    const sb = createTestSandbox();
    const res = await seed(sb, { customers: [{ externalId: 'x', accounts: [{ currencies: ['EUR'], status: 'pending' }] }] });
    await sb.json('POST', '/_sandbox/clock/advance', { body: { by: '2s' }, token: false });
    const account = await sb.json('GET', `/v1/accounts/${res.body.customers[0].accounts[0].id}`);
    expect(account.body.status).toBe('active');
  });

  it.each([
    ['a misspelt field', { customers: [{ externalId: 'a', accounts: [{ currencies: ['EUR'], cardz: [] }] }] }, 'customers[0].accounts[0].cardz'],
    ['no currencies', { customers: [{ externalId: 'a', accounts: [{}, { currencies: [] }] }] }, 'customers[0].accounts[0].currencies'],
    ['a state the seed cannot reach', { customers: [{ externalId: 'a', status: 'verifying' }] }, 'customers[0].status'],
    [
      'accounts under a customer who is not verified',
      { customers: [{ externalId: 'a', status: 'initiating', accounts: [{ currencies: ['EUR'] }] }] },
      'customers[0].accounts',
    ],
    [
      'cards under an undeployed account',
      { customers: [{ externalId: 'a', accounts: [{ currencies: ['EUR'], status: 'pending', cards: [{}] }] }] },
      'customers[0].accounts[0].cards',
    ],
    [
      'a bad address',
      {
        customers: [
          { externalId: 'a', accounts: [{ currencies: ['EUR'], cards: [{ billingAddress: { firstLine: 'x', city: 'y', country: 'XX', postCode: '1' } }] }] },
        ],
      },
      'customers[0].accounts[0].cards[0].billingAddress.country',
    ],
    ['a bad wallet', { customers: [{ externalId: 'a', chainId: '0x12' }] }, 'customers[0].chainId'],
    ['an unknown webhook type', { webhooks: [{ callbackUrl: 'http://127.0.0.1:9/', types: ['card.created'] }] }, 'webhooks[0].types[0]'],
    ['not an object', [], 'body'],
  ])('refuses %s with a 400 naming the place', async (_, body, path) => {
    const sb = createTestSandbox();
    const res = await seed(sb, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ title: 'Invalid request', code: 'invalid_request' });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(counts(sb)).toEqual({ customers: 0, accounts: 0, cards: 0, webhooks: 0, events: 0 });
  });

  it.each([
    [
      'an unsupported currency',
      { customers: [{ externalId: 'a', accounts: [{ currencies: ['EUR'] }, { currencies: ['XXX'] }] }] },
      'customers[0].accounts[1].currencies[0]',
    ],
    ['a duplicate customer', { customers: [{ externalId: 'a', accounts: [{ currencies: ['EUR'], cards: [{}] }] }, { externalId: 'a' }] }, 'customers[1]'],
    [
      'a second live virtual card',
      { customers: [{ externalId: 'a', accounts: [{ currencies: ['EUR'], cards: [{}, {}] }] }] },
      'customers[0].accounts[0].cards[1]',
    ],
    [
      'a physical card without --physical-cards',
      { customers: [{ externalId: 'a', accounts: [{ currencies: ['EUR'], cards: [{ type: 'physical' }] }] }] },
      'customers[0].accounts[0].cards[0]',
    ],
    ['a webhook URL that is not absolute', { webhooks: [{ callbackUrl: '/relative', types: ['card.updated'] }] }, 'webhooks[0].callbackUrl'],
  ])('loads nothing when the services refuse %s part-way, and names the place', async (_, body, path) => {
    const sb = createTestSandbox();
    const before = await seed(sb, { customers: [{ externalId: 'existing' }] });
    expect(before.status).toBe(201);
    const loaded = counts(sb);
    const res = await seed(sb, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    expect(res.body.detail).toContain('nothing was loaded');
    expect(counts(sb)).toEqual(loaded);
    expect(sb.deps.services.jobs.pending()).toEqual([]);
  });

  it('refuses a document over 1 MiB with 413, and a body that is not JSON with 400', async () => {
    const sb = createTestSandbox();
    const huge = await seed(sb, { description: 'x'.repeat(1_100_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
    const text = await sb.json('POST', '/_sandbox/seed', { token: false, body: 'customers: []', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(400);
    const broken = await sb.json('POST', '/_sandbox/seed', { token: false, body: '{"customers": [' });
    expect(broken.status).toBe(400);
    expect(broken.body.detail).toContain('not valid JSON');
    expect(counts(sb).events).toBe(0);
  });

  it('refuses a duplicate of a customer already in the sandbox', async () => {
    const sb = createTestSandbox();
    await seed(sb, { customers: [{ externalId: 'a', chainId: WALLET }] });
    const res = await seed(sb, { customers: [{ externalId: 'b', chainId: WALLET.toLowerCase() }] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ path: 'customers[0]', message: expect.stringContaining('customer_already_exists') });
  });
});

describe('fixtures/demo.json', () => {
  it('loads: an active customer with an active account and card, a card to issue and a customer to verify', async () => {
    const sb = createTestSandbox();
    const res = await seed(sb, readFixture('demo.json'));
    expect(res.status).toBe(201);
    const [alice, bob, carol] = res.body.customers;
    expect(alice).toMatchObject({ status: 'active', accounts: [{ status: 'active', cards: [{ status: 'active' }] }] });
    expect(bob.accounts[0].cards[0].status).toBe('issuing');
    expect(carol.status).toBe('initiating');
  });
});
