import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../app.js';
import { defaultConfig } from '../config/index.js';
import { buildDeps } from '../deps.js';
import { memoryLog } from '../kernel/log.js';
import { startServer, type RunningSandbox } from '../server.js';
import { answerMismatch, declaredAnswers, statusMismatch } from '../testing/wire.js';
import { testWallet } from '../testing/world.js';
import { OPERATIONS } from './api.generated.js';
import { ApiError, createClient, type ApiClient, type OperationName } from './index.js';

// The client against a real server in --verify strict: every operation of /openapi.json, each
// answer checked against the shape its route declares, token refresh, idempotency and refusals.
let sandbox: RunningSandbox;
let declared: ReturnType<typeof declaredAnswers>;
const sent: string[] = [];

/** fetch, checking every answer against its route's declared statuses and shape, and keeping every URL. */
const checkedFetch: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  sent.push(`${init?.method ?? 'GET'} ${url.pathname}`);
  const res = await fetch(input, init);
  const undeclared = statusMismatch(declared, init?.method ?? 'GET', url.pathname, res.status);
  if (undeclared) throw new Error(undeclared);
  const mismatch = answerMismatch(declared, init?.method ?? 'GET', url.pathname, res.status, res.headers.get('Content-Type') ?? '', await res.clone().text());
  if (mismatch) throw new Error(mismatch);
  return res;
};

const DEFAULT = { apiKey: '11111111-1111-4111-8111-111111111111', apiSecret: 'sandbox-secret' };
const control = (path: string, body?: unknown) =>
  fetch(`${sandbox.url}/_sandbox${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.json());
const newClient = (options: Partial<Parameters<typeof createClient>[0]> = {}) =>
  createClient({ baseUrl: sandbox.url, ...DEFAULT, fetch: checkedFetch, ...options });

beforeAll(async () => {
  const deps = buildDeps(defaultConfig({ port: 0, verify: 'strict', clock: '2026-03-01T09:00:00Z' }), { log: memoryLog() });
  declared = declaredAnswers(createApp(deps).openAPIRegistry.definitions);
  sandbox = await startServer(deps);
});

afterAll(() => sandbox?.close());

describe('createClient', () => {
  test('has a method for every operation of /openapi.json, and nothing else', async () => {
    const document = (await fetch(`${sandbox.url}/openapi.json`).then((r) => r.json())) as { paths: Record<string, Record<string, { operationId: string }>> };
    const ids = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(ids).toHaveLength(46);
    expect(Object.keys(OPERATIONS).sort()).toEqual([...ids].sort());
    const client = newClient();
    for (const id of ids) expect(client[id as OperationName], id).toBeTypeOf('function');
  });

  test('runs all 46 operations, signed, in strict mode, and only ever calls /v1', async () => {
    const called = new Set<string>();
    const plain = newClient();
    const client = new Proxy(plain, { get: (target, name: string) => (called.add(name), target[name as keyof ApiClient]) }) as ApiClient;
    const wallet = testWallet(randomUUID());
    const sign = async (challenge: string) => ({ ownerId: wallet.chainId, challenge, signature: await wallet.sign(challenge) });
    const billingAddress = { firstLine: '1 Main Street', city: 'London', country: 'GB', postCode: 'N1 1AA' };

    expect((await client.getToken(DEFAULT)).tokenType).toBe('Bearer');
    expect((await client.getChains()).map((c) => c.id)).toContain('eip155:11155111');
    expect(await client.getAssets({ chain: 'eip155:11155111' })).not.toHaveLength(0);
    // Rotating credentials revokes every token: the client fetches a new one by itself.
    const extra = { apiKey: randomUUID(), apiSecret: 'another-secret' };
    await client.updateCredentials(extra);
    await client.deleteCredentials({ apiKey: extra.apiKey });
    const other = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const otherId = randomUUID();
    await client.updateSigningKey({ signingKeyId: otherId, signingKey: Buffer.from(other).toString('base64') });
    await client.deleteSigningKey({ signingKeyId: otherId });

    const customer = await client.createCustomer({ chainId: wallet.chainId, externalId: randomUUID() });
    expect((await client.getCustomers()).map((c) => c.id)).toContain(customer.id);
    expect((await client.getCustomer(customer.id)).status).toBe('initiating');
    const { challenge } = await client.getCustomerChallenge(customer.id);
    await client.signCustomerChallenge(customer.id, await sign(challenge));
    await client.simulateVerifyCustomer(customer.id);

    const account = await client.createCustomerAccount(customer.id, { type: 'card_account', currencies: ['EUR'] });
    expect(await client.getCustomerAccounts(customer.id)).toHaveLength(1);
    expect((await client.getAccounts()).map((a) => a.id)).toContain(account.id);
    await client.signAccountChallenge(account.id, await sign((await client.getAccountChallenge(account.id)).challenge));
    await control('/clock/advance', { by: '2s' });
    expect((await client.getAccount(account.id)).status).toBe('active');

    const card = await client.createAccountCard(account.id, { type: 'virtual', billingAddress });
    expect(await client.getAccountCards(account.id)).toHaveLength(1);
    expect((await client.getCards()).map((c) => c.id)).toContain(card.id);
    await client.simulateIssueCard(card.id);
    expect((await client.getCard(card.id)).maskedPan).toMatch(/^431940\*{6}\d{4}$/);

    const held = await client.simulateCardAuthorisation(card.id, { amount: '40', currency: 'EUR', capture: false });
    expect((await client.getAuthorisationDetails(held.id)).status).toBe('pending');
    await client.simulateCardAuthorisationCapture(held.id);
    await control('/clock/advance', { by: '2s' });
    const [transaction] = await client.getCardTransactions(card.id);
    expect(await client.getAccountTransactions(account.id)).toEqual([transaction]);
    expect((await client.getTransactionDetails(transaction!.id)).status).toBe('processed');
    const released = await client.simulateCardAuthorisation(card.id, { amount: '5', currency: 'EUR', capture: false });
    await client.simulateCardAuthorisationRelease(released.id);

    const webhook = await client.saveWebhook({ callbackUrl: 'http://127.0.0.1:9/hooks', types: ['card.updated'] });
    expect(await client.getWebhooks()).toEqual([webhook]);
    expect(await client.getWebhook(webhook.id)).toEqual(webhook);
    expect((await client.getWebhookVerificationKey()).key).toBeTypeOf('string');
    await client.deleteWebhook(webhook.id);

    expect((await client.deactivateCard(card.id)).status).toBe('inactive');
    expect((await client.activateCard(card.id)).status).toBe('active');
    await client.deleteCard(card.id);
    const failing = await client.createAccountCard(account.id, { type: 'virtual', billingAddress });
    await client.simulateCardFail(failing.id);
    expect((await client.deactivateAccount(account.id)).status).toBe('inactive');
    expect((await client.activateAccount(account.id)).status).toBe('active');
    await client.closeAccount(account.id);
    expect((await client.deactivateCustomer(customer.id)).status).toBe('inactive');
    expect((await client.activateCustomer(customer.id)).status).toBe('active');
    const rejected = await client.createCustomer({ chainId: testWallet(randomUUID()).chainId, externalId: randomUUID() });
    await client.simulateRejectCustomer(rejected.id);

    expect([...called].filter((name) => name in OPERATIONS).sort()).toEqual(Object.keys(OPERATIONS).sort());
    // No sandbox-only route: the same client serves the hosted API.
    expect(sent.filter((line) => !/^[A-Z]+ \/v1\//.test(line))).toEqual([]);
    const journal = (await control('/requests')) as { status: number; warnings: string[] }[];
    expect(journal.filter((r) => r.status >= 400 && r.status !== 401)).toEqual([]);
  });

  test('fetches a new token when a clock advance expires the one it has', async () => {
    const client = newClient();
    await client.getChains();
    const before = await client.token();
    await control('/clock/advance', { by: '2h' });
    await client.getChains();
    expect(await client.token()).not.toBe(before);
    const journal = (await control('/requests')) as { method: string; path: string; status: number }[];
    expect(
      journal
        .slice(0, 4)
        .reverse()
        .map((r) => `${r.method} ${r.path} ${r.status}`),
    ).toEqual(['GET /v1/chains 200', 'GET /v1/chains 401', 'POST /v1/auth/token 200', 'GET /v1/chains 200']);
  });

  test('keeps the Idempotency-Key of a mutation it is given: the same key creates one customer', async () => {
    const client = newClient();
    const key = randomUUID();
    const body = { chainId: testWallet(randomUUID()).chainId, externalId: randomUUID() };
    const first = await client.createCustomer(body, { idempotencyKey: key });
    expect(await client.createCustomer(body, { idempotencyKey: key })).toEqual(first);
  });

  test('signs with a key it is given, registered beforehand, and registers none of its own', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const keyId = randomUUID();
    await newClient().updateSigningKey({ signingKeyId: keyId, signingKey: Buffer.from(publicKey.export({ type: 'spki', format: 'pem' })).toString('base64') });
    sent.length = 0;
    const client = newClient({ signingKey: { keyId, privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() } });
    expect(client.keyId).toBe(keyId);
    await client.getCustomers();
    expect(sent).toEqual(['POST /v1/auth/token', 'GET /v1/customers']);
  });

  test('throws ApiError with the problem body', async () => {
    const client = newClient();
    const missing = '0b9e5f7a-2c4d-4e6f-8a1b-3c5d7e9f1a2b';
    const error = await client.getCustomer(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'customer_not_found', operation: 'getCustomer', method: 'GET', path: `/v1/customers/${missing}` });
    expect((error as ApiError).problem).toMatchObject({ title: 'Customer not found', requestId: (error as ApiError).requestId });
    expect((error as ApiError).message).toBe(`getCustomer: GET /v1/customers/${missing} answered 404 customer_not_found: no customer with id ${missing}`);

    // A wrong field at run time (the types refuse it at compile time): every bad field named.
    const invalid = (await client.createCustomer({ chainId: 'nope' } as never).catch((e: unknown) => e)) as ApiError;
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(invalid.problem?.errors?.map((e) => e.path).sort()).toEqual(['chainId', 'externalId']);
  });

  test('refuses wrong credentials with invalid_credentials, and nothing is sent without a token', async () => {
    sent.length = 0;
    const client = newClient({ apiSecret: 'wrong' });
    await expect(client.getCards()).rejects.toMatchObject({ name: 'ApiError', status: 401, code: 'invalid_credentials', operation: 'getToken' });
    expect(sent).toEqual(['POST /v1/auth/token']);
  });

  test('accepts a base URL ending in /v1', async () => {
    const client = newClient({ baseUrl: `${sandbox.url}/v1/` });
    expect(await client.getChains()).not.toHaveLength(0);
  });
});
