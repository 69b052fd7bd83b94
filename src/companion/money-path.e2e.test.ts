/**
 * The whole money path through the documented controls alone (docs/money-path.md): a story that
 * takes every customer, account, card, authorisation and transaction to every status the service's
 * schemas declare, with debits and credits and all three fee types, a hold updated and captured in
 * parts and a debit with no authorisation — through the API client, the
 * companion's simulator, fees and clock — while a webhook receiver verifies every delivery. Every
 * answer and every webhook body is checked with a JSON Schema validator against the sandbox's own
 * /openapi.json and /_sandbox/openapi.json and against the service's document itself (its
 * structure, checked in as a fixture: docs/api.md: The service's document in the tests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiSchemas, referenceSchemas } from '../testing/openapi-schemas.js';
import { until } from '../testing/wait.js';
import { createClient } from '../client/create-client.js';
import { createSandbox, type Sandbox } from './create-sandbox.js';
import type { WebhookReceiver } from './receiver.js';

const BILLING = { firstLine: '1 Main St', city: 'London', country: 'GB', postCode: 'N1 1AA' };
const RESOURCES = { customer: 'Customer', account: 'Account', card: 'Card', authorisation: 'Authorisation', transaction: 'Transaction' } as const;

let sandbox: Sandbox;
let receiver: WebhookReceiver;
let client: ReturnType<typeof createClient>;
let api: ReturnType<typeof openApiSchemas>;
let controlPlane: ReturnType<typeof openApiSchemas>;
/** The service's own document: every /v1 answer and webhook body is held to it too. */
const reference = referenceSchemas();
/** Every JSON answer of /v1 the journey's client received (each a success: the journey makes no mistake), checked at the end. */
const answers: { method: string; path: string; status: number; value: unknown }[] = [];
const controlAnswers: { schema: string; value: unknown }[] = [];

/** fetch, keeping every JSON answer of /v1 as it came over the wire. */
const recording: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const { pathname } = new URL(input instanceof Request ? input.url : input);
  if (pathname.startsWith('/v1/') && res.status < 300 && res.headers.get('content-type')?.includes('json')) {
    answers.push({
      method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
      path: pathname,
      status: res.status,
      value: await res.clone().json(),
    });
  }
  return res;
};
function controlled<T>(schema: string, value: T): T {
  controlAnswers.push({ schema, value });
  return value;
}

beforeAll(async () => {
  sandbox = await createSandbox({ name: 'money path', clock: '2026-03-01T09:00:00Z', randomSeed: 7 });
  const documentAt = async (path: string) => (await (await fetch(`${sandbox.url}${path}`)).json()) as Parameters<typeof openApiSchemas>[0];
  api = openApiSchemas(await documentAt('/openapi.json'));
  controlPlane = openApiSchemas(await documentAt('/_sandbox/openapi.json'));
  receiver = await sandbox.webhooks.receiver();
  client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret, fetch: recording });
});

afterAll(() => sandbox?.close());

describe('the money path, start to end', () => {
  it('reaches every status, both directions and every fee type, and every answer and webhook body is what the schemas say', async () => {
    const { simulator } = sandbox;
    expect(controlled('Fees', await sandbox.fees.set({ partner: '0.5%', service: '0.10', network: '1%' }))).toEqual({
      partner: '0.5%',
      service: '0.1',
      network: '1%',
    });

    // Customers: initiating → screening → verifying → active ⇄ inactive; another rejected.
    const wallet = sandbox.wallet();
    const customer = await client.createCustomer({ chainId: wallet.chainId, externalId: 'alice' });
    await client.signCustomerChallenge(customer.id, wallet.signChallenge(customer.challenge));
    await client.simulateVerifyCustomer(customer.id);
    const rejected = await client.createCustomer({ chainId: sandbox.wallet().chainId, externalId: 'bob' });
    await client.simulateRejectCustomer(rejected.id);

    // Accounts: initiating → pending → active; one failed; one inactive, then closed.
    const open = async () => {
      const account = await client.createCustomerAccount(customer.id, { type: 'card_account', currencies: ['EUR'] });
      await client.signAccountChallenge(account.id, wallet.signChallenge(account.challenge));
      return account;
    };
    const account = await open();
    const closing = await open();
    const failing = await client.createCustomerAccount(customer.id, { type: 'card_account', currencies: ['EUR'] });
    expect(controlled('Account', await simulator.failAccount(failing.id)).status).toBe('failed');
    await sandbox.clock.advance('2s');

    // Cards: issuing → active; issue_failed; suspended and reinstated (blocked at the end); inactive; terminated with its account.
    const newCard = (accountId: string) => client.createAccountCard(accountId, { type: 'virtual', billingAddress: BILLING });
    const card = await newCard(account.id);
    await client.simulateIssueCard(card.id);
    const failed = await newCard(closing.id);
    await client.simulateCardFail(failed.id);
    const doomed = await newCard(closing.id);
    await client.simulateIssueCard(doomed.id);
    await client.deactivateCard(doomed.id);
    await client.deactivateAccount(closing.id);
    await client.closeAccount(closing.id);
    expect(controlled('Card', await simulator.suspendCard(card.id)).status).toBe('suspended');
    expect(controlled('Card', await simulator.reinstateCard(card.id)).status).toBe('active');

    // Authorisations: captured automatically; captured in part; released by hand; released when the hold expires.
    const authorise = async (body: { amount: string; currency: string; capture?: boolean }) =>
      await client.simulateCardAuthorisation(card.id, { capture: true, ...body });
    const auto = await authorise({ amount: '12.50', currency: 'USD' });
    const partial = await authorise({ amount: '40', currency: 'EUR', capture: false });
    const released = await authorise({ amount: '9', currency: 'EUR', capture: false });
    const expiring = await authorise({ amount: '3', currency: 'GBP', capture: false });
    await simulator.capture(partial.id, '25');
    await client.simulateCardAuthorisationRelease(released.id);
    // Clearing in several messages: a hold raised, captured in two parts; a debit with no authorisation.
    const split = await authorise({ amount: '20', currency: 'EUR', capture: false });
    expect(controlled('Authorisation', await simulator.updateAmount(split.id, '30'))).toMatchObject({ status: 'pending', amount: '30' });
    await simulator.capture(split.id, '12', { final: false });
    await simulator.capture(split.id);
    const forced = controlled('Transaction', await simulator.forcePost(card.id, { amount: '7', currency: 'EUR', merchant: { name: 'Late Cafe' } }));
    expect(forced).toMatchObject({ direction: 'debit', status: 'processing' });
    expect(forced.authorisationId).toBeUndefined();
    await sandbox.clock.advance('2s');
    const splitDebits = (await client.getCardTransactions(card.id)).filter((t) => t.authorisationId === split.id);
    expect(splitDebits.map((t) => [t.amount, t.status])).toEqual([
      ['12', 'processed'],
      ['18', 'processed'],
    ]);

    // Transactions: debits processed; one reversed; a refund as a credit, processed.
    const debits = await client.getCardTransactions(card.id);
    const partialDebit = debits.find((t) => t.authorisationId === partial.id)!;
    expect(partialDebit).toMatchObject({ amount: '25', status: 'processed' });
    expect(controlled('Transaction', await simulator.reverse(partialDebit.id)).status).toBe('reversing');
    const autoDebit = debits.find((t) => t.authorisationId === auto.id)!;
    const refund = controlled('Transaction', await simulator.refund(card.id, { amount: '5', currency: 'EUR', transactionId: autoDebit.id }));
    expect(refund).toMatchObject({ direction: 'credit', status: 'processing', authorisationId: auto.id });
    await sandbox.clock.advance('7d');
    expect((await client.getAuthorisationDetails(expiring.id)).status).toBe('released');
    // Blocked is final: the card's story ends there.
    expect(controlled('Card', await simulator.blockCard(card.id)).status).toBe('blocked');

    // The customer goes inactive and back: its account and card follow.
    await client.deactivateCustomer(customer.id);
    await client.activateCustomer(customer.id);

    // Every event delivered and verified.
    const events = await sandbox.events.list({ limit: 1000 });
    await until(() => receiver.events.length === events.length, 'every event delivered to the receiver');

    const reached = new Map<string, Set<string>>();
    for (const event of receiver.events) {
      expect(api.webhook(event.webhookType, event), event.webhookType).toEqual([]);
      expect(reference.webhook(event.webhookType, event), `${event.webhookType} against the service's document`).toEqual([]);
      const resource = event.webhookType.split('.')[0]!;
      reached.set(resource, (reached.get(resource) ?? new Set()).add((event as { status: string }).status));
    }
    for (const [resource, schema] of Object.entries(RESOURCES)) {
      const declared = api.enumOf(schema, 'status');
      expect(declared.length, schema).toBeGreaterThan(3);
      expect([...(reached.get(resource) ?? [])].sort(), resource).toEqual([...declared].sort());
    }
    expect(Object.fromEntries(Object.entries(RESOURCES).map(([r, s]) => [r, api.enumOf(s, 'status').length]))).toEqual({
      customer: 6,
      account: 6,
      card: 7,
      authorisation: 5,
      transaction: 4,
    });

    const transactions = await client.getAccountTransactions(account.id);
    expect(new Set(transactions.map((t) => t.direction))).toEqual(new Set(api.enumOf('Transaction', 'direction')));
    const feeTypes = new Set(transactions.flatMap((t) => t.fees.map((f) => f.type)));
    expect([...feeTypes].sort()).toEqual(['network', 'partner', 'service']);
    expect(transactions.find((t) => t.id === refund.id)!.fees).toEqual([
      // 0.5% of 5 is 0.025: rounded half-even to 0.02.
      { type: 'partner', tokenAmount: '0.02' },
      { type: 'service', tokenAmount: '0.1' },
      { type: 'network', tokenAmount: '0.05' },
    ]);

    for (const t of transactions) await client.getTransactionDetails(t.id);
    await client.getCustomers();
    await client.getAccounts();
    await client.getCards();
    // Every operation with a JSON answer the journey called, each answer checked below.
    expect(new Set(answers.map((a) => `${a.method} ${a.path.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, '{id}')}`))).toEqual(
      new Set([
        'POST /v1/auth/token',
        'POST /v1/customers',
        'POST /v1/customers/{id}/accounts',
        'POST /v1/accounts/{id}/cards',
        'PATCH /v1/cards/{id}/deactivate',
        'PATCH /v1/accounts/{id}/deactivate',
        'POST /v1/simulator/cards/{id}/authorisation',
        'GET /v1/cards/{id}/transactions',
        'GET /v1/authorisations/{id}',
        'PATCH /v1/customers/{id}/deactivate',
        'PATCH /v1/customers/{id}/activate',
        'GET /v1/accounts/{id}/transactions',
        'GET /v1/transactions/{id}',
        'GET /v1/customers',
        'GET /v1/accounts',
        'GET /v1/cards',
      ]),
    );
    for (const { method, path, status, value } of answers) {
      expect(api.answer(method, path, status, value), `${method} ${path}`).toEqual([]);
      expect(reference.answer(method, path, status, value), `${method} ${path} against the service's document`).toEqual([]);
    }
    for (const { schema, value } of controlAnswers) {
      expect(controlPlane.component(schema, value), schema).toEqual([]);
      // The simulator answers with the service's resources; the fees are the sandbox's own.
      if (schema !== 'Fees') expect(reference.component(schema, value), `${schema} against the service's document`).toEqual([]);
    }
    // The checks can fail: a status, a fee type or an amount the schemas do not allow is named.
    const delivered = receiver.events.find((e) => e.webhookType === 'transaction.updated')!;
    expect(api.webhook('transaction.updated', { ...delivered, status: 'refunded' })).toEqual([
      expect.stringMatching(/\/status must be equal to one of the allowed values/),
    ]);
    expect(reference.webhook('transaction.updated', { ...delivered, status: 'refunded' })).toEqual([
      expect.stringMatching(/^transaction\.updated\/status must be equal to one of the allowed values/),
    ]);
    const hold = receiver.events.find((e) => e.webhookType === 'authorisation.updated')!;
    expect(reference.webhook('authorisation.updated', { ...hold, exchangeRate: undefined })).toContainEqual(
      expect.stringMatching(/must have required property 'exchangeRate'/),
    );
    expect(reference.answer('GET', `/v1/transactions/${refund.id}`, 200, { ...refund, direction: 'sideways' })).toContainEqual(
      expect.stringMatching(/\/direction must be equal to one of the allowed values/),
    );
    expect(reference.answer('GET', '/v1/nowhere', 200, {})).toEqual(['GET /v1/nowhere declares no JSON answer for 200']);
    expect(api.component('Transaction', { ...refund, fees: [{ type: 'interchange', tokenAmount: '1' }] })).not.toEqual([]);
    expect(reference.component('Transaction', { ...refund, fees: [{ type: 'interchange', tokenAmount: '1' }] })).toEqual([
      expect.stringMatching(/^Transaction\/fees\/0\/type must be equal to one of the allowed values/),
    ]);
    const negative = api.component('Transaction', { ...refund, amount: '-5' });
    expect(negative).toContainEqual(expect.stringMatching(/^Transaction\/amount must match/));
    expect(negative.filter((e) => !e.startsWith('Transaction/amount '))).toEqual([]);
  });
});
