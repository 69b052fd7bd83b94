/**
 * Moving rates (docs/money-path.md: Moving rates): GET and PUT /_sandbox/rates per programme, a
 * capture converted at the rate of its own time, refusals naming the currency, and the rates kept
 * by a snapshot and absent from a file written before rates moved.
 */
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { payments, SECOND, type Payments } from '../../testing/payments.js';
import { issuedCard, type BuiltCard } from '../../testing/world.js';

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;

const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });
const rates = async () => (await control('GET', '/rates')).body;

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
});

describe('GET and PUT /_sandbox/rates', () => {
  it('answers the shipped table, moves a rate in its normal form, and PUT {} is the table again', async () => {
    const shipped = await rates();
    expect(shipped).toMatchObject({ base: 'USD', moved: {} });
    expect(shipped.rates).toMatchObject({ USD: '1', EUR: '0.92', GBP: '0.785' });

    const moved = await control('PUT', '/rates', { EUR: '0.950', GBP: '0.8' });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ ...shipped, rates: { ...shipped.rates, EUR: '0.95', GBP: '0.8' }, moved: { EUR: '0.95', GBP: '0.8' } });
    expect(await rates()).toEqual(moved.body);

    expect((await control('PUT', '/rates', {})).body).toEqual(shipped);
  });

  it('refuses an unknown currency, the base and a bad rate, naming each, and changes nothing', async () => {
    await control('PUT', '/rates', { EUR: '0.95' });
    const refused = await control('PUT', '/rates', { XYZ: '1', USD: '2', EUR: '-1', GBP: 0.8, JPY: '0' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body.errors).toEqual([
      { path: 'XYZ', message: expect.stringMatching(/^not a currency of the rate table/) },
      { path: 'USD', message: 'USD is the base of the rate table: its rate is 1 by definition' },
      { path: 'EUR', message: 'must be a decimal string in plain notation such as "0.95", got "-1"' },
      { path: 'GBP', message: 'must be a decimal string such as "0.95"' },
      { path: 'JPY', message: 'must be more than 0' },
    ]);
    expect((await control('PUT', '/rates', ['EUR'])).status).toBe(400);
    expect((await rates()).moved).toEqual({ EUR: '0.95' });
  });
});

describe('a capture converts at the rate of its own time', () => {
  it("debits the merchant's amount at the rate moved since the hold, and the transaction carries that rate", async () => {
    const hold = (await p.authorise(card.cardId, { amount: '12.50', currency: 'USD', capture: false })).body;
    expect(hold).toMatchObject({ amount: '11.5', exchangeRate: '0.92' });
    const before = (await control('GET', `/simulator/accounts/${card.accountId}/balance`)).body.balance;

    await control('PUT', '/rates', { EUR: '0.95' });
    expect((await control('PATCH', `/simulator/authorisations/${hold.id}/capture`)).status).toBe(202);
    await p.advance(2 * SECOND);

    const [debit] = await p.cardTransactions(card.cardId);
    // 12.50 × 0.95 = 11.875, rounded half-even to 11.88.
    expect(debit).toMatchObject({ authorisationId: hold.id, amount: '11.88', tokenAmount: '11.88', merchantAmount: '12.5', exchangeRate: '0.95' });
    expect(await p.authorisation(hold.id)).toMatchObject({ status: 'captured', amount: '11.5', exchangeRate: '0.92' });
    const after = (await control('GET', `/simulator/accounts/${card.accountId}/balance`)).body;
    expect(Number(before) - Number(after.balance)).toBeCloseTo(11.88, 6);
    expect(after.held).toBe('0');
  });

  it("converts a partial capture's merchant share at the moved rate, and a new authorisation at the table once reset", async () => {
    const hold = (await p.authorise(card.cardId, { amount: '12.50', currency: 'USD', capture: false })).body;
    await control('PUT', '/rates', { EUR: '0.95' });
    await control('PATCH', `/simulator/authorisations/${hold.id}/capture`, { amount: '5' });
    await p.advance(2 * SECOND);
    // 5 / 0.95 = 5.263…
    expect((await p.cardTransactions(card.cardId))[0]).toMatchObject({ amount: '5', merchantAmount: '5.26', exchangeRate: '0.95' });

    expect((await p.authorise(card.cardId, { amount: '10', currency: 'USD' })).body).toMatchObject({ amount: '9.5', exchangeRate: '0.95' });
    await control('PUT', '/rates', {});
    expect((await p.authorise(card.cardId, { amount: '10', currency: 'USD' })).body).toMatchObject({ amount: '9.2', exchangeRate: '0.92' });
  });
});

describe('rates in snapshots', () => {
  it('keeps the moved rates in a snapshot and puts them back; a file written before rates moved restores the table', async () => {
    await control('PUT', '/rates', { EUR: '0.95' });
    const saved = (await control('POST', '/snapshots', { name: 'moved' })).body;
    await control('PUT', '/rates', { GBP: '0.7' });
    expect((await control('POST', `/snapshots/${saved.id}/restore`)).status).toBe(200);
    expect((await rates()).moved).toEqual({ EUR: '0.95' });

    const older = readFileSync(new URL('../../snapshots/fixtures/version-3.snapshot.json', import.meta.url));
    await sb.deps.snapshots.restoreFile(sb.deps.programmes.default(), older);
    expect((await rates()).moved).toEqual({});
    expect((await p.authorise((await issuedCard(sb, { currencies: ['EUR'] })).cardId, { amount: '10', currency: 'USD' })).body.exchangeRate).toBe('0.92');
  });
});
