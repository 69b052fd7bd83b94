/**
 * Funds (docs/money-path.md: Funds): each account's balance, what its pending authorisations hold
 * and what is available, through GET and PUT /_sandbox/simulator/accounts/{id}/balance as a user
 * sends them; a payment beyond what is available refused `insufficient_funds`, making nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { MISSING, payments, SECOND, type Payments } from '../../testing/payments.js';
import { issuedCard, type BuiltCard } from '../../testing/world.js';

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;

const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });
const balance = async () => (await control('GET', `/simulator/accounts/${card.accountId}/balance`)).body;
const setBalance = (amount: unknown) => control('PUT', `/simulator/accounts/${card.accountId}/balance`, { amount });

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
});

describe('an account’s funds', () => {
  it('start at the documented balance, and PUT sets it', async () => {
    expect(await balance()).toEqual({ balance: '1000000', held: '0', available: '1000000' });
    const set = await setBalance('100.50');
    expect(set).toMatchObject({ status: 200, body: { balance: '100.5', held: '0', available: '100.5' } });
    expect(await balance()).toEqual(set.body);
  });

  it('refuses a 120 EUR authorisation on a 100 EUR balance with 400 insufficient_funds, and makes nothing', async () => {
    await setBalance('100');
    const before = p.counts();
    const refused = await p.authorise(card.cardId, { amount: '120', currency: 'EUR', capture: false });
    expect(refused.body).toMatchObject({
      status: 400,
      code: 'insufficient_funds',
      detail: 'insufficient funds: 120 EUR asked, 100 EUR available (balance 100, held 0)',
    });
    expect(p.counts()).toEqual(before);
    expect(await balance()).toEqual({ balance: '100', held: '0', available: '100' });
    expect((await control('POST', `/simulator/cards/${card.cardId}/authorisation`, { amount: '120', currency: 'EUR' })).body.code).toBe('insufficient_funds');
  });

  it('holds a pending authorisation in escrow; a capture takes it, a release gives it back, a credit and a reversal add', async () => {
    await setBalance('100');
    const held = (await p.authorise(card.cardId, { amount: '30', currency: 'EUR', capture: false })).body.id as string;
    const released = (await p.authorise(card.cardId, { amount: '50', currency: 'EUR', capture: false })).body.id as string;
    expect(await balance()).toEqual({ balance: '100', held: '80', available: '20' });
    expect((await p.authorise(card.cardId, { amount: '20.01', currency: 'EUR' })).body.code).toBe('insufficient_funds');

    await p.patch(released, 'release');
    await control('PATCH', `/simulator/authorisations/${held}/capture`, { amount: '25' });
    // Capturing: the part captured stays held until its debit takes it.
    expect(await balance()).toEqual({ balance: '100', held: '25', available: '75' });
    await p.advance(2 * SECOND);
    expect(await balance()).toEqual({ balance: '75', held: '0', available: '75' });

    const [debit] = await p.cardTransactions(card.cardId);
    await control('POST', `/simulator/transactions/${debit.id}/reverse`);
    expect((await balance()).balance).toBe('100');
    await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '5', currency: 'EUR' });
    expect((await balance()).balance).toBe('105');
  });

  it('loses what a debit settles, fees included, and gains what a credit brings, less its fees', async () => {
    await setBalance('100');
    await control('PUT', '/fees', { service: '0.50' });
    await p.authorise(card.cardId, { amount: '10', currency: 'EUR' });
    await p.advance(2 * SECOND);
    expect((await balance()).balance).toBe('89.5');
    await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '4', currency: 'EUR' });
    expect((await balance()).balance).toBe('93');
  });

  it('refuses a bad balance, an unknown key and an unknown account, naming the field, and changes nothing', async () => {
    await setBalance('100');
    for (const amount of ['-1', '1.005', 'ten', 5, '1e3']) {
      const res = await setBalance(amount);
      expect(res.body, String(amount)).toMatchObject({ status: 400, errors: [{ path: 'amount' }] });
    }
    const extra = await control('PUT', `/simulator/accounts/${card.accountId}/balance`, { amount: '1', currency: 'EUR' });
    expect(extra.body.errors[0].message).toMatch(/currency: unknown/);
    expect((await control('GET', `/simulator/accounts/${MISSING}/balance`)).body).toMatchObject({ status: 404, code: 'account_not_found' });
    expect((await control('PUT', `/simulator/accounts/${MISSING}/balance`, { amount: '1' })).body.code).toBe('account_not_found');
    expect((await balance()).balance).toBe('100');
  });

  it("start at the programme's own startingBalance, or --starting-balance", async () => {
    const made = await control('POST', '/programmes', { startingBalance: '250' });
    expect(made.body.startingBalance).toBe('250');
    expect((await control('POST', '/programmes', { startingBalance: '-5' })).body.errors[0].path).toBe('startingBalance');
    const low = createTestSandbox({ startingBalance: '40' });
    const lowCard = await issuedCard(low, { currencies: ['EUR'] });
    expect((await low.json('GET', `/_sandbox/simulator/accounts/${lowCard.accountId}/balance`, { token: false })).body.balance).toBe('40');
  });
});
