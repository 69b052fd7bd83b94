/**
 * Clearing in more than one message, as the schemes send it (docs/money-path.md): several captures
 * of one hold, a pending authorisation's amount raised or lowered, and a debit with no
 * authorisation — each through its control as a user sends it, the funds consistent at every step,
 * every answer and event body what the sandbox's /openapi.json says, and every refusal changing nothing.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { openApiSchemas } from '../../testing/openapi-schemas.js';
import { MISSING, payments, SECOND, type Payments } from '../../testing/payments.js';
import { issuedCard, type BuiltCard } from '../../testing/world.js';

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;
let schemas: ReturnType<typeof openApiSchemas>;

const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });
const hold = async (amount: string, mcc = 5411) =>
  (await p.authorise(card.cardId, { amount, currency: 'EUR', capture: false, merchant: { mcc } })).body.id as string;
const capture = (id: string, body?: unknown) => control('PATCH', `/simulator/authorisations/${id}/capture`, body);
const update = (id: string, amount: unknown) => control('PATCH', `/simulator/authorisations/${id}/amount`, { amount });
const forcePost = (cardId: string, body: unknown) => control('POST', `/simulator/cards/${cardId}/transactions`, body);
const funds = async () => (await control('GET', `/simulator/accounts/${card.accountId}/balance`)).body;
const setBalance = (amount: string) => control('PUT', `/simulator/accounts/${card.accountId}/balance`, { amount });

/** Every event body written for `id` is the resource the document declares. */
const checkEvents = (id: string, resource: 'Authorisation' | 'Transaction') => {
  for (const event of p.eventsOf(id)) expect(schemas.component(resource, event.body)).toEqual([]);
};

beforeAll(async () => {
  const document = createTestSandbox();
  schemas = openApiSchemas((await document.json('GET', '/openapi.json')).body);
});

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
  await setBalance('100');
});

describe('several captures of one hold', () => {
  it('takes each part as its own debit, keeps the rest held, and the last closes the authorisation', async () => {
    const id = await hold('50');
    expect((await capture(id, { amount: '20', final: false })).status).toBe(202);
    expect(await p.authorisation(id)).toMatchObject({ status: 'pending', amount: '50' });
    expect(await funds()).toEqual({ balance: '80', held: '30', available: '50' });

    expect((await capture(id, { amount: '10', final: false })).status).toBe(202);
    expect(await funds()).toEqual({ balance: '70', held: '20', available: '50' });

    // The last capture takes 15: the 5 left is released.
    expect((await capture(id, { amount: '15' })).status).toBe(202);
    expect(await funds()).toEqual({ balance: '70', held: '15', available: '55' });
    await p.advance(2 * SECOND);
    expect(await funds()).toEqual({ balance: '55', held: '0', available: '55' });
    expect(await p.authorisation(id)).toMatchObject({ status: 'captured', amount: '50' });

    const debits = await p.cardTransactions(card.cardId);
    expect(debits.map((t) => [t.authorisationId, t.direction, t.amount, t.status])).toEqual([
      [id, 'debit', '20', 'processed'],
      [id, 'debit', '10', 'processed'],
      [id, 'debit', '15', 'processed'],
    ]);
    for (const debit of debits) expect(schemas.component('Transaction', debit)).toEqual([]);
    // The parts change no state: the authorisation's events are its capture's alone.
    expect(p.eventsOf(id).map((e) => e.body.status)).toEqual(['pending', 'capturing', 'captured']);
  });

  it('captures what is left when the last capture names no amount, and releases it all when the hold is released', async () => {
    const id = await hold('50');
    await capture(id, { amount: '20', final: false });
    await capture(id);
    await p.advance(2 * SECOND);
    expect((await p.cardTransactions(card.cardId)).map((t) => t.amount)).toEqual(['20', '30']);
    expect(await funds()).toEqual({ balance: '50', held: '0', available: '50' });

    const released = await hold('40');
    await capture(released, { amount: '15', final: false });
    expect((await p.api('PATCH', `/v1/simulator/authorisations/${released}/release`)).status).toBe(202);
    await p.advance(2 * SECOND);
    expect(await funds()).toEqual({ balance: '35', held: '0', available: '35' });
  });

  it('lets the tip of a restaurant count on the total, never beyond it', async () => {
    const id = await hold('50', 5812);
    await capture(id, { amount: '30', final: false });
    expect((await capture(id, { amount: '30.01' })).body.errors).toEqual([
      {
        path: 'amount',
        message: 'must be at most 30 EUR: the authorised 50 and the 20 % tip merchant category 5812 allows, less the 30 captured before',
      },
    ]);
    expect((await capture(id, { amount: '27.50' })).status).toBe(202);
    await p.advance(2 * SECOND);
    expect((await p.cardTransactions(card.cardId)).map((t) => t.amount)).toEqual(['30', '27.5']);
  });

  it('refuses a part that is not less than what is held, a part without an amount, and a capture after the last, changing nothing', async () => {
    const id = await hold('50');
    await capture(id, { amount: '45', final: false });
    const before = p.counts();
    expect((await capture(id, { amount: '5', final: false })).body.errors[0]).toEqual({
      path: 'amount',
      message: 'must be less than the 5 EUR still held when final is false; the final capture takes the rest',
    });
    expect((await capture(id, { amount: '5.01' })).body.errors[0].message).toMatch(
      /^must be at most 5 EUR: the authorised 50, less the 45 captured before; merchant category 5411 takes no tip/,
    );
    expect((await capture(id, { final: false })).body.errors).toEqual([{ path: 'amount', message: 'is needed when final is false: the part to capture' }]);
    expect((await capture(id, { amount: '1', final: 'no' })).body.errors[0].path).toBe('final');
    expect(p.counts()).toEqual(before);
    await capture(id);
    expect((await capture(id, { amount: '1', final: false })).body).toMatchObject({ status: 400, code: 'authorisation_not_pending' });
  });

  it('lets refunds give back what all the captures of the hold took, never more', async () => {
    const id = await hold('50');
    await capture(id, { amount: '30', final: false });
    await capture(id, { amount: '20' });
    await p.advance(2 * SECOND);
    const [first, second] = await p.cardTransactions(card.cardId);
    const refund = (transactionId: string, amount: string) =>
      control('POST', `/simulator/cards/${card.cardId}/refund`, { amount, currency: 'EUR', transactionId });
    expect((await refund(first.id, '30')).status).toBe(201);
    expect((await refund(second.id, '15')).status).toBe(201);
    expect((await refund(second.id, '5.01')).body.errors).toEqual([
      {
        path: 'amount',
        message: `refunds of the 2 debits of authorisation ${id} would come to 50.01 EUR with the 45 EUR refunded before, more than the 50 EUR they took`,
      },
    ]);
  });
});

describe('PATCH /_sandbox/simulator/authorisations/{id}/amount', () => {
  it('raises and lowers a pending authorisation: same status, an authorisation.updated event with the new amount, the hold following', async () => {
    const id = await hold('30');
    const raised = await update(id, '45.50');
    expect(raised).toMatchObject({ status: 200, body: { id, status: 'pending', amount: '45.5', merchantAmount: '45.5' } });
    expect(schemas.component('Authorisation', raised.body)).toEqual([]);
    expect(await funds()).toEqual({ balance: '100', held: '45.5', available: '54.5' });
    expect((await update(id, '10')).body.amount).toBe('10');
    expect(await funds()).toEqual({ balance: '100', held: '10', available: '90' });
    const updates = p.eventsOf(id);
    expect(updates.map((e) => [e.type, e.body.status, e.body.amount])).toEqual([
      ['authorisation.updated', 'pending', '30'],
      ['authorisation.updated', 'pending', '45.5'],
      ['authorisation.updated', 'pending', '10'],
    ]);
    checkEvents(id, 'Authorisation');
    await capture(id);
    await p.advance(2 * SECOND);
    expect((await p.cardTransactions(card.cardId)).map((t) => t.amount)).toEqual(['10']);
  });

  it('converts the new amount back at the authorisation’s rate', async () => {
    const id = (await p.authorise(card.cardId, { amount: '12.5', currency: 'USD', capture: false })).body.id as string;
    expect((await update(id, '23')).body).toMatchObject({ amount: '23', merchantAmount: '25', merchantCurrency: 'USD', exchangeRate: '0.92' });
  });

  it('refuses a raise beyond the funds with insufficient_funds, counting the hold it replaces', async () => {
    const id = await hold('60');
    const before = p.counts();
    expect((await update(id, '100.01')).body).toMatchObject({
      status: 400,
      code: 'insufficient_funds',
      detail: 'insufficient funds: 100.01 EUR asked, 100 EUR available (balance 100, held 0)',
    });
    expect(p.counts()).toEqual(before);
    expect((await update(id, '100')).status).toBe(200);
  });

  it('never goes below what the captures took, and is refused in any state but pending, naming it', async () => {
    const id = await hold('50');
    await capture(id, { amount: '20', final: false });
    expect((await update(id, '20')).body.errors).toEqual([{ path: 'amount', message: 'must be more than the 20 EUR its captures took already' }]);
    expect((await update(id, '0')).body.errors[0]).toEqual({ path: 'amount', message: 'must be greater than 0' });
    expect((await update(id, 5)).body.errors[0].path).toBe('amount');
    expect((await update(id, '1.001')).body.errors[0].message).toMatch(/at most 2 fraction digits/);
    await capture(id);
    const refused = await update(id, '40');
    expect(refused.body).toMatchObject({ status: 409, code: 'invalid_state_transition' });
    expect(refused.body.detail).toBe(`cannot update the amount of authorisation ${id}, which is capturing: only a pending authorisation takes updates`);
    expect((await update(MISSING, '40')).body.code).toBe('authorisation_not_found');
    expect((await control('PATCH', `/simulator/authorisations/${id}/amount`, { amount: '40', extra: 1 })).body.errors[0].message).toMatch(/"extra"/);
  });
});

describe('POST /_sandbox/simulator/cards/{id}/transactions', () => {
  it('makes a debit with no authorisation, processing then processed, taken from the balance with its fees', async () => {
    await control('PUT', '/fees', { service: '0.10' });
    const made = await forcePost(card.cardId, { amount: '12.5', currency: 'USD', merchant: { name: 'Late Cafe', mcc: 5812 } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      direction: 'debit',
      status: 'processing',
      amount: '11.5',
      tokenAmount: '11.6',
      merchantAmount: '12.5',
      exchangeRate: '0.92',
    });
    expect(made.body.merchant).toMatchObject({ name: 'Late Cafe', mcc: 5812 });
    expect(made.body).not.toHaveProperty('authorisationId');
    expect(schemas.component('Transaction', made.body)).toEqual([]);
    expect(await funds()).toEqual({ balance: '88.4', held: '0', available: '88.4' });
    await p.advance(2 * SECOND);
    expect(p.eventsOf(made.body.id).map((e) => [e.type, e.body.status])).toEqual([
      ['transaction.updated', 'processing'],
      ['transaction.updated', 'processed'],
    ]);
    checkEvents(made.body.id, 'Transaction');
  });

  it('is refused beyond the funds, fees included, on a card that cannot pay, and for a bad body, making nothing', async () => {
    await control('PUT', '/fees', { service: '0.10' });
    const before = p.counts();
    expect((await forcePost(card.cardId, { amount: '99.95', currency: 'EUR' })).body).toMatchObject({
      status: 400,
      code: 'insufficient_funds',
      detail: 'insufficient funds: 100.05 EUR asked, 100 EUR available (balance 100, held 0)',
    });
    await control('PATCH', `/simulator/cards/${card.cardId}/block`);
    const blocked = await forcePost(card.cardId, { amount: '1', currency: 'EUR' });
    expect(blocked.body).toMatchObject({ status: 400, code: 'card_not_active' });
    expect(blocked.body.detail).toMatch(/is blocked; only an active card/);
    const bad = await forcePost(card.cardId, { amount: '1.001', currency: 'EUR', merchant: { mcc: 'x' }, extra: true });
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['amount', 'body', 'merchant.mcc']);
    expect((await forcePost(card.cardId, { amount: '1', currency: 'EURO' })).body.errors[0].path).toBe('currency');
    expect((await forcePost(MISSING, { amount: '1', currency: 'EUR' })).body.code).toBe('card_not_found');
    expect(p.counts().transactions).toBe(before.transactions);
  });
});
