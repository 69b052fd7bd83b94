import { describe, expect, it } from 'vitest';
import { smartAccountAddress } from '../../domain/smart-account.js';
import { T0, createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { expectShape } from '../../testing/wire.js';
import { Account } from '../../wire/account.js';
import { activeAccount, customer, eventsOf, pendingAccount, proofFor, testWallet, type BuiltCustomer } from '../../testing/world.js';

const UNKNOWN = '3b241101-e2bb-4255-8caf-4136c566a962';
const create = (sb: TestSandbox, customerId: string, body: unknown) => sb.json('POST', `/v1/customers/${customerId}/accounts`, { body });
const sign = (sb: TestSandbox, id: string, body: unknown) => sb.json('POST', `/v1/accounts/${id}/challenge/sign`, { body });
const status = async (sb: TestSandbox, id: string) => (await sb.json('GET', `/v1/accounts/${id}`)).body.status;
const count = (sb: TestSandbox) => (sb.deps.store.sqlite.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n;
const paths = (body: { errors: { path: string }[] }) => body.errors.map((e) => e.path);

async function newAccount(sb: TestSandbox, owner?: BuiltCustomer) {
  const built = owner ?? (await customer(sb));
  const res = await create(sb, built.customerId, { type: 'card_account', currencies: ['EUR', 'USD'] });
  return { ...built, accountId: res.body.id as string, accountChallenge: res.body.challenge as string, res };
}

describe('POST /v1/customers/{id}/accounts', () => {
  it('creates an initiating account with a challenge for the customer wallet', async () => {
    const sb = createTestSandbox();
    const { res, accountId, customerId, wallet } = await newAccount(sb);
    expect(res.status).toBe(201);
    expectShape(res.body, Account, ['challenge']);
    expect(res.body).toMatchObject({ customerId, status: 'initiating', type: 'card_account', currencies: ['EUR', 'USD'] });
    expect(res.body).not.toHaveProperty('chainId');
    const message = Buffer.from(res.body.challenge, 'base64').toString('utf8');
    expect(message).toContain(wallet.address);
    expect(message).toContain(`Request ID: ${accountId}`);
    const { challenge: _, ...account } = res.body;
    expect(eventsOf(sb, accountId)).toEqual([{ webhookType: 'account.updated', eventId: expect.any(String), ...account }]);
  });

  it('needs an active customer', async () => {
    const sb = createTestSandbox();
    const pending = await customer(sb, { status: 'verifying' });
    const res = await create(sb, pending.customerId, { type: 'card_account', currencies: ['EUR'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ title: 'Invalid request', code: 'customer_not_active' });
    expect((await create(sb, UNKNOWN, { type: 'card_account', currencies: ['EUR'] })).body.code).toBe('customer_not_found');
    expect(count(sb)).toBe(0);
  });

  it('names every bad field at once', async () => {
    const sb = createTestSandbox();
    const { customerId } = await customer(sb);
    expect(paths((await create(sb, customerId, { type: 'savings', currencies: [] })).body)).toEqual(['type', 'currencies']);
    expect(paths((await create(sb, customerId, { type: 'card_account', currencies: ['EUR', 'JPY', 7] })).body)).toEqual(['currencies.1', 'currencies.2']);
    expect(paths((await create(sb, customerId, {})).body)).toEqual(['type', 'currencies']);
    expect(paths((await create(sb, customerId, { type: 'card_account', currencies: ['EUR', 'EUR'] })).body)).toEqual(['currencies.1']);
    expect(count(sb)).toBe(0);
  });

  it('refuses a currency with no asset on the customer chain', async () => {
    // In production, Arbitrum One carries USDC only.
    const sb = createTestSandbox({ env: 'production' });
    const wallet = testWallet('arb', 'eip155:42161');
    const created = sb.deps.services.customers.create({ chainId: wallet.chainId, externalId: 'arb' });
    sb.deps.services.customers.verify(created.id);
    const res = await create(sb, created.id, { type: 'card_account', currencies: ['USD', 'EUR'] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'currencies.1', message: expect.stringContaining('EUR has no asset on eip155:42161') }]);
    expect((await create(sb, created.id, { type: 'card_account', currencies: ['USD'] })).status).toBe(201);
  });
});

describe('account challenge and deployment', () => {
  it('a signature makes it pending; 2 s later it is active on a smart-account address', async () => {
    const sb = createTestSandbox();
    const { accountId, accountChallenge, wallet } = await newAccount(sb);
    const res = await sb.request('POST', `/v1/accounts/${accountId}/challenge/sign`, { body: await proofFor(wallet, accountChallenge) });
    expect(res.status).toBe(204);
    expect(await status(sb, accountId)).toBe('pending');
    await sb.deps.services.scheduler.advance(T0 + 1999);
    expect(await status(sb, accountId)).toBe('pending');
    await sb.deps.services.scheduler.advance(T0 + 2000);
    const account = (await sb.json('GET', `/v1/accounts/${accountId}`)).body;
    expectShape(account, Account);
    expect(account).toMatchObject({
      status: 'active',
      chainId: `eip155:11155111:${smartAccountAddress(wallet.address, accountId)}`,
      updatedAt: '2026-03-01T09:00:02.000Z',
    });
    expect(eventsOf(sb, accountId).map((e) => e.status)).toEqual(['initiating', 'pending', 'active']);
    expect(eventsOf(sb, accountId).at(-1)).toEqual({ webhookType: 'account.updated', eventId: expect.any(String), ...account });
  });

  it('GET …/challenge replaces the earlier challenge', async () => {
    const sb = createTestSandbox();
    const { accountId, accountChallenge, wallet } = await newAccount(sb);
    const next = (await sb.json('GET', `/v1/accounts/${accountId}/challenge`)).body.challenge;
    expect(next).not.toBe(accountChallenge);
    const old = await sign(sb, accountId, await proofFor(wallet, accountChallenge));
    expect(old.status).toBe(400);
    expect(old.body.detail).toContain('replaced by a newer challenge');
    expect((await sign(sb, accountId, await proofFor(wallet, next))).status).toBe(204);
  });

  it('a wrong signer gets 400 and a new challenge; a second signature gets 409', async () => {
    const sb = createTestSandbox();
    const { accountId, accountChallenge, wallet } = await newAccount(sb);
    const wrong = await sign(sb, accountId, { ...(await proofFor(testWallet('eve'), accountChallenge)), ownerId: wallet.chainId });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('invalid_challenge_signature');
    expect(await status(sb, accountId)).toBe('initiating');
    const renewed = (await sb.deps.store.sqlite.prepare('SELECT challenge FROM accounts WHERE id = ?').get(accountId)) as { challenge: string };
    expect(renewed.challenge).not.toBe(accountChallenge);
    const proof = await proofFor(wallet, renewed.challenge);
    expect((await sign(sb, accountId, proof)).status).toBe(204);
    const again = await sign(sb, accountId, proof);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ title: 'Challenge already signed', code: 'challenge_already_signed' });
  });

  it('refuses malformed bodies naming the fields, and unknown accounts with 404', async () => {
    const sb = createTestSandbox();
    const { accountId } = await newAccount(sb);
    expect(paths((await sign(sb, accountId, { ownerId: 1 })).body)).toEqual(['ownerId', 'challenge', 'signature']);
    expect((await sb.json('GET', `/v1/accounts/${UNKNOWN}/challenge`)).body.code).toBe('account_not_found');
    expect((await sign(sb, UNKNOWN, { ownerId: testWallet('x').chainId, challenge: 'YQ==', signature: 'YQ==' })).status).toBe(404);
  });
});

describe('GET /v1/accounts, /v1/accounts/{id}, /v1/customers/{id}/accounts', () => {
  it('list oldest first and per customer', async () => {
    const sb = createTestSandbox();
    const first = await activeAccount(sb);
    const second = await activeAccount(sb, { customer: first });
    const other = await activeAccount(sb);
    const all = (await sb.json('GET', '/v1/accounts')).body;
    expect(all.map((a: { id: string }) => a.id)).toEqual([first.accountId, second.accountId, other.accountId]);
    for (const item of all) expectShape(item, Account);
    const mine = (await sb.json('GET', `/v1/customers/${first.customerId}/accounts`)).body;
    expect(mine.map((a: { id: string }) => a.id)).toEqual([first.accountId, second.accountId]);
    expect((await sb.json('GET', `/v1/customers/${UNKNOWN}/accounts`)).status).toBe(404);
    const missing = await sb.json('GET', `/v1/accounts/${UNKNOWN}`);
    expect(missing.body).toMatchObject({ status: 404, title: 'Account not found', code: 'account_not_found' });
    expect((await sb.json('GET', '/v1/accounts/not-a-uuid')).status).toBe(400);
  });
});

describe('deactivate, activate and close', () => {
  it('toggle an active account', async () => {
    const sb = createTestSandbox();
    const { accountId } = await activeAccount(sb);
    const off = await sb.json('PATCH', `/v1/accounts/${accountId}/deactivate`);
    expect(off.status).toBe(200);
    expectShape(off.body, Account);
    expect(off.body.status).toBe('inactive');
    expect((await sb.json('PATCH', `/v1/accounts/${accountId}/deactivate`)).status).toBe(409);
    expect((await sb.json('PATCH', `/v1/accounts/${accountId}/activate`)).body.status).toBe('active');
    expect((await sb.json('PATCH', `/v1/accounts/${accountId}/activate`)).body).toMatchObject({
      code: 'invalid_state_transition',
      detail: expect.stringContaining('active'),
    });
  });

  it('close an active or inactive account (204), and refuse anything else with 409', async () => {
    const sb = createTestSandbox();
    const active = await activeAccount(sb);
    const res = await sb.request('DELETE', `/v1/accounts/${active.accountId}`);
    expect(res.status).toBe(204);
    expect(await status(sb, active.accountId)).toBe('closed');
    expect((await sb.json('DELETE', `/v1/accounts/${active.accountId}`)).status).toBe(409);
    expect((await sb.json('PATCH', `/v1/accounts/${active.accountId}/activate`)).status).toBe(409);

    const inactive = await activeAccount(sb);
    await sb.json('PATCH', `/v1/accounts/${inactive.accountId}/deactivate`);
    expect((await sb.request('DELETE', `/v1/accounts/${inactive.accountId}`)).status).toBe(204);

    const pending = await pendingAccount(sb);
    const refused = await sb.json('DELETE', `/v1/accounts/${pending.accountId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('pending');
    expect((await sb.json('DELETE', `/v1/accounts/${UNKNOWN}`)).status).toBe(404);
  });

  it('refuses to activate an account while its customer is inactive', async () => {
    const sb = createTestSandbox();
    const { accountId, customerId } = await activeAccount(sb);
    await sb.json('PATCH', `/v1/customers/${customerId}/deactivate`);
    const res = await sb.json('PATCH', `/v1/accounts/${accountId}/activate`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('customer_not_active');
    expect(await status(sb, accountId)).toBe('inactive');
  });
});
