import { beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { MISSING, payments, SECOND, type Payments } from '../../testing/payments.js';
import { activeAccount, issuedCard, type BuiltCard } from '../../testing/world.js';

const REQUIRED = [
  'id',
  'accountId',
  'status',
  'direction',
  'amount',
  'currency',
  'merchantAmount',
  'merchantCurrency',
  'exchangeRate',
  'merchant',
  'tokenAmount',
  'token',
  'fees',
  'chainTransactions',
  'createdAt',
  'updatedAt',
];

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;

/** Authorises `amount` EUR on a card and lets the sandbox capture it; returns the transaction id. */
async function spend(cardId: string, amount: string): Promise<string> {
  const auth = await p.authorise(cardId, { amount, currency: 'EUR' });
  expect(auth.status).toBe(201);
  await p.advance(SECOND);
  return (await p.cardTransactions(cardId)).find((t) => t.authorisationId === auth.body.id).id;
}

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
});

describe('transaction lists', () => {
  it('list an account’s transactions across its cards, and each card’s own, oldest first', async () => {
    const a = await spend(card.cardId, '1');
    const b = await spend(card.cardId, '2');
    sb.deps.services.cards.terminate(card.cardId);
    const second = await issuedCard(sb, { account: card });
    const c = await spend(second.cardId, '3');

    const ids = async (path: string) => {
      const res = await sb.json('GET', path);
      expect(res.status).toBe(200);
      return (res.body as { id: string }[]).map((t) => t.id);
    };
    expect(await ids(`/v1/accounts/${card.accountId}/transactions`)).toEqual([a, b, c]);
    expect(await ids(`/v1/cards/${card.cardId}/transactions`)).toEqual([a, b]);
    expect(await ids(`/v1/cards/${second.cardId}/transactions`)).toEqual([c]);
  });

  it('are empty for an account or card without captures; a released authorisation leaves none', async () => {
    const other = await activeAccount(sb);
    expect((await sb.json('GET', `/v1/accounts/${other.accountId}/transactions`)).body).toEqual([]);
    const { body } = await p.authorise(card.cardId, { amount: '5', currency: 'EUR', capture: false });
    await p.patch(body.id, 'release');
    await p.advance(60 * SECOND);
    expect(await p.cardTransactions(card.cardId)).toEqual([]);
    expect((await sb.json('GET', `/v1/accounts/${card.accountId}/transactions`)).body).toEqual([]);
  });
});

describe('GET /v1/transactions/{transactionId}', () => {
  it('returns every required field of the reference schema and no nulls', async () => {
    const id = await spend(card.cardId, '10.10');
    const res = await sb.request('GET', `/v1/transactions/${id}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('null');
    const transaction = JSON.parse(text);
    for (const field of REQUIRED) expect(transaction).toHaveProperty(field);
    expect(transaction).toMatchObject({ id, amount: '10.1', tokenAmount: '10.1', cardId: card.cardId });
  });
});

describe('refusals', () => {
  const cases: [string, string, number, string][] = [
    ['an unknown transaction', `/v1/transactions/${MISSING}`, 404, 'transaction_not_found'],
    ['a malformed transaction id', '/v1/transactions/42', 400, 'invalid_request'],
    ['an unknown authorisation', `/v1/authorisations/${MISSING}`, 404, 'authorisation_not_found'],
    ['a malformed authorisation id', '/v1/authorisations/not-a-uuid', 400, 'invalid_request'],
    ['an unknown account', `/v1/accounts/${MISSING}/transactions`, 404, 'account_not_found'],
    ['a malformed account id', '/v1/accounts/xyz/transactions', 400, 'invalid_request'],
    ['an unknown card', `/v1/cards/${MISSING}/transactions`, 404, 'card_not_found'],
    ['a malformed card id', '/v1/cards/xyz/transactions', 400, 'invalid_request'],
  ];
  for (const [what, path, status, code] of cases) {
    it(`${what} → ${status} ${code}`, async () => {
      const res = await sb.json('GET', path);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status, code, requestId: expect.any(String) });
    });
  }

  it('without a token → 401 not_authorised', async () => {
    for (const path of [
      `/v1/transactions/${MISSING}`,
      `/v1/authorisations/${MISSING}`,
      `/v1/cards/${card.cardId}/transactions`,
      `/v1/accounts/${card.accountId}/transactions`,
    ]) {
      const res = await sb.json('GET', path, { token: false });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('not_authorised');
    }
  });
});
