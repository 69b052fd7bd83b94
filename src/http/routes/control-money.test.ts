/**
 * The money controls of /_sandbox/simulator and /_sandbox/fees: partial captures, reversals,
 * refunds and fees, each through its route as a user sends it, and every refusal a clear problem
 * that changes nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { MISSING, payments, SECOND, type Payments } from '../../testing/payments.js';
import { issuedCard, type BuiltCard } from '../../testing/world.js';

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;

const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });

/** A held authorisation of `amount` `currency`; its id. */
const hold = async (amount: string, currency = 'EUR') => (await p.authorise(card.cardId, { amount, currency, capture: false })).body.id as string;

/** A debit of `amount` EUR, captured and settled; its transaction. */
async function settledDebit(amount: string) {
  const auth = await p.authorise(card.cardId, { amount, currency: 'EUR' });
  await p.advance(2 * SECOND);
  return (await p.cardTransactions(card.cardId)).find((t) => t.authorisationId === auth.body.id);
}

/** What a refusal must leave as it was: rows and events. */
const unchanged = async (refused: () => Promise<unknown>) => {
  const before = p.counts();
  await refused();
  expect(p.counts()).toEqual(before);
};

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
});

describe('PATCH /_sandbox/simulator/authorisations/{id}/capture', () => {
  it('captures part of a hold: the transaction is for that part, in both currencies, and the rest is released', async () => {
    const id = await hold('12.50', 'USD');
    const res = await control('PATCH', `/simulator/authorisations/${id}/capture`, { amount: '5' });
    expect(res.status).toBe(202);
    expect(res.body).toBeUndefined();
    await p.advance(SECOND);
    const auth = await p.authorisation(id);
    expect(auth).toMatchObject({ status: 'captured', amount: '11.5', merchantAmount: '12.5', exchangeRate: '0.92' });
    const [tx] = await p.cardTransactions(card.cardId);
    expect(tx).toMatchObject({ authorisationId: id, direction: 'debit', amount: '5', tokenAmount: '5', merchantAmount: '5.43', exchangeRate: '0.92' });
    expect(p.eventsOf(id).map((e) => e.body.status)).toEqual(['pending', 'capturing', 'captured']);
  });

  it('captures the whole hold without a body, as /v1 does', async () => {
    const id = await hold('7');
    expect((await control('PATCH', `/simulator/authorisations/${id}/capture`)).status).toBe(202);
    await p.advance(SECOND);
    expect((await p.cardTransactions(card.cardId))[0]).toMatchObject({ amount: '7', merchantAmount: '7' });
  });

  it('refuses more than was authorised, zero, a negative, a malformed amount or none that is a number, and changes nothing', async () => {
    const id = await hold('10');
    for (const amount of ['10.01', '0', '-1', '1e2', '1.001', 'abc', '', '.', '-'])
      for (const final of [true, false]) {
        await unchanged(async () => {
          const res = await control('PATCH', `/simulator/authorisations/${id}/capture`, { amount, final });
          expect(res.status, `${amount} final ${final}`).toBe(400);
          expect(res.body).toMatchObject({ code: 'invalid_request', errors: [{ path: 'amount' }] });
        });
      }
    expect((await control('PATCH', `/simulator/authorisations/${id}/capture`, { amount: 10 })).body.errors[0].path).toBe('amount');
    expect((await p.authorisation(id)).status).toBe('pending');
  });

  it('refuses a hold that is no longer pending, and one that does not exist', async () => {
    const id = await hold('10');
    await control('PATCH', `/simulator/authorisations/${id}/capture`, { amount: '4' });
    await unchanged(async () => {
      const again = await control('PATCH', `/simulator/authorisations/${id}/capture`, { amount: '4' });
      expect(again.body).toMatchObject({ status: 400, code: 'authorisation_not_pending' });
      expect(again.body.detail).toMatch(/is capturing; only a pending authorisation can be captured/);
    });
    expect((await control('PATCH', `/simulator/authorisations/${MISSING}/capture`, { amount: '1' })).body.code).toBe('authorisation_not_found');
    expect((await control('PATCH', '/simulator/authorisations/nope/capture')).body.errors[0].path).toBe('authorisationId');
  });
});

describe('POST /_sandbox/simulator/transactions/{id}/reverse', () => {
  it('takes back a processed debit: reversing at once, reversed 1 s later, each a transaction.updated', async () => {
    const tx = await settledDebit('20');
    const res = await control('POST', `/simulator/transactions/${tx.id}/reverse`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: tx.id, status: 'reversing', direction: 'debit', amount: '20' });
    await p.advance(SECOND);
    expect((await p.api('GET', `/v1/transactions/${tx.id}`)).body.status).toBe('reversed');
    const events = p.eventsOf(tx.id);
    expect(events.map((e) => `${e.type} ${e.body.status}`)).toEqual([
      'transaction.updated processing',
      'transaction.updated processed',
      'transaction.updated reversing',
      'transaction.updated reversed',
    ]);
  });

  it('refuses a debit still processing, naming the state it needs: only a processed transaction is reversed', async () => {
    await p.authorise(card.cardId, { amount: '3', currency: 'EUR' });
    await p.advance(SECOND);
    const [tx] = await p.cardTransactions(card.cardId);
    expect(tx.status).toBe('processing');
    await unchanged(async () => {
      const res = await control('POST', `/simulator/transactions/${tx.id}/reverse`);
      expect(res.body).toMatchObject({
        status: 409,
        code: 'invalid_state_transition',
        detail: 'cannot reverse a transaction that is processing: only a transaction that is processed can become reversing',
      });
    });
    await p.advance(SECOND);
    expect((await control('POST', `/simulator/transactions/${tx.id}/reverse`)).body.status).toBe('reversing');
  });

  it('refuses a reversed or reversing debit, a credit and a refunded debit, naming what it needs, and changes nothing', async () => {
    const tx = await settledDebit('20');
    await control('POST', `/simulator/transactions/${tx.id}/reverse`);
    await unchanged(async () => {
      const res = await control('POST', `/simulator/transactions/${tx.id}/reverse`);
      expect(res.body).toMatchObject({ status: 409, code: 'invalid_state_transition' });
      expect(res.body.detail).toBe('cannot reverse a transaction that is reversing: only a transaction that is processed can become reversing');
    });
    await p.advance(SECOND);
    expect((await control('POST', `/simulator/transactions/${tx.id}/reverse`)).body.detail).toMatch(/that is reversed/);

    const refunded = await settledDebit('10');
    const credit = (await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '1', currency: 'EUR', transactionId: refunded.id })).body;
    await unchanged(async () => {
      expect((await control('POST', `/simulator/transactions/${credit.id}/reverse`)).body).toMatchObject({
        status: 409,
        detail: `transaction ${credit.id} is a credit; only a debit can be reversed`,
      });
      expect((await control('POST', `/simulator/transactions/${refunded.id}/reverse`)).body.detail).toMatch(/has been refunded \(1 refund\)/);
      expect((await control('POST', `/simulator/transactions/${MISSING}/reverse`)).body).toMatchObject({ status: 404, code: 'transaction_not_found' });
    });
  });
});

describe('POST /_sandbox/simulator/cards/{id}/refund', () => {
  it('credits the account: a new credit transaction converted as a payment is, processing then processed', async () => {
    const res = await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '12.50', currency: 'USD', merchant: { name: 'Corner Shop' } });
    expect(res.status).toBe(201);
    const credit = res.body;
    expect(credit).toMatchObject({
      accountId: card.accountId,
      cardId: card.cardId,
      status: 'processing',
      direction: 'credit',
      amount: '11.5',
      currency: 'EUR',
      merchantAmount: '12.5',
      merchantCurrency: 'USD',
      exchangeRate: '0.92',
      tokenAmount: '11.5',
      fees: [],
      merchant: { id: 'TEST', name: 'Corner Shop', mcc: 9999, country: 'GB', city: 'London' },
    });
    expect(credit).not.toHaveProperty('authorisationId');
    expect(credit.chainTransactions).toHaveLength(1);
    await p.advance(SECOND);
    expect((await p.api('GET', `/v1/transactions/${credit.id}`)).body.status).toBe('processed');
    expect(p.eventsOf(credit.id).map((e) => e.body.status)).toEqual(['processing', 'processed']);
  });

  it('follows a settled debit: linked to its authorisation, with its merchant, in parts up to what it took', async () => {
    await p.authorise(card.cardId, { amount: '20', currency: 'EUR', merchant: { name: 'Bakery', mcc: 5462 } });
    await p.advance(2 * SECOND);
    const [debit] = await p.cardTransactions(card.cardId);
    const first = await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '15', currency: 'EUR', transactionId: debit.id.toUpperCase() });
    expect(first.body).toMatchObject({ direction: 'credit', authorisationId: debit.authorisationId, merchant: { name: 'Bakery', mcc: 5462 } });
    await unchanged(async () => {
      const over = await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '5.01', currency: 'EUR', transactionId: debit.id });
      expect(over.body).toMatchObject({ status: 400, code: 'invalid_request', errors: [{ path: 'amount' }] });
      expect(over.body.errors[0].message).toBe(
        `refunds of transaction ${debit.id} would come to 20.01 EUR with the 15 EUR refunded before, more than the 20 EUR it took`,
      );
    });
    expect((await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '5', currency: 'EUR', transactionId: debit.id })).status).toBe(201);
  });

  it('refuses zero, a negative amount, an unknown currency, a debit of another card or still processing, and changes nothing', async () => {
    const other = await issuedCard(sb);
    await p.authorise(other.cardId, { amount: '5', currency: 'EUR' });
    await p.authorise(card.cardId, { amount: '5', currency: 'EUR' });
    await p.advance(SECOND);
    const [theirs] = await p.cardTransactions(other.cardId);
    const [processing] = await p.cardTransactions(card.cardId);
    await unchanged(async () => {
      const refund = (body: unknown) => control('POST', `/simulator/cards/${card.cardId}/refund`, body);
      expect((await refund({ amount: '0', currency: 'EUR' })).body.errors).toEqual([{ path: 'amount', message: 'must be greater than 0' }]);
      expect((await refund({ amount: '-5', currency: 'EUR' })).body.errors[0].path).toBe('amount');
      expect((await refund({ amount: '5', currency: 'XXX' })).body.errors[0].path).toBe('currency');
      expect((await refund({ currency: 'EUR' })).body.errors[0].path).toBe('amount');
      const foreign = await refund({ amount: '1', currency: 'EUR', transactionId: theirs.id });
      expect(foreign.body).toMatchObject({
        status: 400,
        errors: [{ path: 'transactionId', message: `transaction ${theirs.id} is not a payment of card ${card.cardId}` }],
      });
      const early = await refund({ amount: '1', currency: 'EUR', transactionId: processing.id });
      expect(early.body).toMatchObject({ status: 409, code: 'invalid_state_transition' });
      expect(early.body.detail).toMatch(/is processing; a refund follows a debit that is processed/);
      expect((await refund({ amount: '1', currency: 'EUR', transactionId: MISSING })).body).toMatchObject({ status: 404, code: 'transaction_not_found' });
      expect((await control('POST', `/simulator/cards/${MISSING}/refund`, { amount: '1', currency: 'EUR' })).body.code).toBe('card_not_found');
    });
  });

  it('reaches a blocked or terminated card, but not one never issued or on a closed account', async () => {
    await control('PATCH', `/simulator/cards/${card.cardId}/block`);
    expect((await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '1', currency: 'EUR' })).status).toBe(201);
    const issuing = await issuedCard(sb, { status: 'issuing' });
    await unchanged(async () => {
      const res = await control('POST', `/simulator/cards/${issuing.cardId}/refund`, { amount: '1', currency: 'EUR' });
      expect(res.body).toMatchObject({
        status: 409,
        detail: `card ${issuing.cardId} is issuing; a refund needs a card that was issued: active, inactive, blocked, suspended or terminated`,
      });
    });
    const closed = await issuedCard(sb);
    sb.deps.services.accounts.close(closed.accountId);
    expect((await control('POST', `/simulator/cards/${closed.cardId}/refund`, { amount: '1', currency: 'EUR' })).body.detail).toBe(
      `account ${closed.accountId} is closed; a refund needs an account that is active or inactive`,
    );
  });
});

describe('/_sandbox/fees', () => {
  it('is empty until set, and every transaction made after carries each fee type, computed exactly', async () => {
    expect((await control('GET', '/fees')).body).toEqual({});
    const before = await settledDebit('11.5');
    const set = await control('PUT', '/fees', { partner: '0.50%', service: '0.10', network: '1.25%' });
    expect(set.body).toEqual({ partner: '0.5%', service: '0.1', network: '1.25%' });
    expect((await control('GET', '/fees')).body).toEqual(set.body);
    const after = await settledDebit('11.5');
    const fees = [
      { type: 'partner', tokenAmount: '0.06' },
      { type: 'service', tokenAmount: '0.1' },
      { type: 'network', tokenAmount: '0.14' },
    ];
    expect(after.fees).toEqual(fees);
    // The fees are part of what settles: a debit takes 11.5 and 0.3 of fees, a credit brings 11.5 less them.
    expect(after).toMatchObject({ amount: '11.5', tokenAmount: '11.8' });
    expect(before).toMatchObject({ fees: [], tokenAmount: '11.5' });
    const credit = (await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '11.5', currency: 'EUR' })).body;
    expect(credit).toMatchObject({ fees, amount: '11.5', tokenAmount: '11.2' });
    await unchanged(async () => {
      const eaten = await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '0.1', currency: 'EUR' });
      expect(eaten.body).toMatchObject({ status: 400, errors: [{ path: 'amount', message: "the programme's fees would take all of 0.1 EUR" }] });
    });
    expect((await control('PUT', '/fees', {})).body).toEqual({});
    expect((await settledDebit('1')).fees).toEqual([]);
  });

  it('refuses what is not a fee, naming each field, and keeps what was set', async () => {
    await control('PUT', '/fees', { partner: '1%' });
    const res = await control('PUT', '/fees', { partner: '0%', service: '0.001', network: '101%', other: '1' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body', 'network', 'partner', 'service']);
    expect(res.body.errors.find((e: { path: string }) => e.path === 'body').message).toMatch(/other/);
    expect((await control('PUT', '/fees', { partner: 0.5 })).body.errors[0].path).toBe('partner');
    expect((await control('GET', '/fees')).body).toEqual({ partner: '1%' });
  });

  it('outlives a reset, as the delivery lab does', async () => {
    await control('PUT', '/fees', { network: '2%' });
    await control('POST', '/reset');
    expect((await control('GET', '/fees')).body).toEqual({ network: '2%' });
  });
});

describe('in the production environment', () => {
  it('has no simulator controls, and fees still answer', async () => {
    const prod = createTestSandbox({ env: 'production' });
    const res = await prod.json('POST', `/_sandbox/simulator/transactions/${MISSING}/reverse`, { token: false });
    expect(res.body).toMatchObject({ status: 404, code: 'route_not_found' });
    expect((await prod.json('GET', '/_sandbox/fees', { token: false })).body).toEqual({});
  });
});
