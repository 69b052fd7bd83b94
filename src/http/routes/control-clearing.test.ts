/**
 * Clearing as the schemes send it (docs/money-path.md: Merchant categories): a capture with a tip
 * where the merchant's category allows one, never elsewhere; lodging and car rental holds that last
 * 31 days.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { DAY, payments, SECOND, type Payments } from '../../testing/payments.js';
import { issuedCard, type BuiltCard } from '../../testing/world.js';

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;

const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });
const hold = async (amount: string, mcc: number) =>
  (await p.authorise(card.cardId, { amount, currency: 'EUR', capture: false, merchant: { mcc } })).body.id as string;
const capture = (id: string, amount: string) => control('PATCH', `/simulator/authorisations/${id}/capture`, { amount });

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
});

describe('a capture with a tip', () => {
  it('takes 57.50 of a 50 EUR restaurant hold as one debit of 57.50', async () => {
    const id = await hold('50', 5812);
    expect((await capture(id, '57.50')).status).toBe(202);
    await p.advance(2 * SECOND);
    const debits = await p.cardTransactions(card.cardId);
    expect(debits).toHaveLength(1);
    expect(debits[0]).toMatchObject({ authorisationId: id, direction: 'debit', amount: '57.5', tokenAmount: '57.5', merchantAmount: '57.5' });
    expect(await p.authorisation(id)).toMatchObject({ status: 'captured', amount: '50' });
  });

  it('refuses more than 20 % over, a tip where the category takes none, and a tip beyond the funds, changing nothing', async () => {
    const taxi = await hold('10', 4121);
    const shop = await hold('10', 5411);
    const before = p.counts();
    expect((await capture(taxi, '12.01')).body).toMatchObject({
      status: 400,
      errors: [{ path: 'amount', message: 'must be at most 12 EUR: the authorised 10 and the 20 % tip merchant category 4121 allows' }],
    });
    expect((await capture(shop, '10.01')).body.errors[0].message).toMatch(/merchant category 5411 takes no tip/);
    await control('PUT', `/simulator/accounts/${card.accountId}/balance`, { amount: '21' });
    expect((await capture(taxi, '12')).body).toMatchObject({ status: 400, code: 'insufficient_funds' });
    expect(p.counts()).toEqual(before);
    expect((await capture(taxi, '11')).status).toBe(202);
  });
});

describe('holds by merchant category', () => {
  it('keeps a hotel hold pending after 8 days and releases it after 31; a shop hold after 7', async () => {
    const hotel = await hold('200', 7011);
    const rental = await hold('90', 3400);
    const shop = await hold('5', 5411);
    await p.advance(8 * DAY);
    expect((await p.authorisation(hotel)).status).toBe('pending');
    expect((await p.authorisation(rental)).status).toBe('pending');
    expect((await p.authorisation(shop)).status).toBe('released');
    await p.advance(23 * DAY);
    expect((await p.authorisation(hotel)).status).toBe('released');
  });
});
