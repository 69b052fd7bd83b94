import { beforeEach, describe, expect, it } from 'vitest';
import { iso } from '../domain/instant.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { DAY, payments, SECOND, type Payments } from '../testing/payments.js';
import { DEFAULT_CHAIN, issuedCard, type BuiltCard } from '../testing/world.js';

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
});

describe('automatic capture', () => {
  it('captures after 1 s and settles the transaction 1 s later, one event per status change', async () => {
    const created = (await p.authorise(card.cardId, { amount: '12.34', currency: 'EUR' })).body;
    const t0 = Date.parse(created.createdAt);

    await p.advance(SECOND - 1);
    expect((await p.authorisation(created.id)).status).toBe('pending');
    expect(await p.cardTransactions(card.cardId)).toEqual([]);

    await p.advance(1);
    const captured = await p.authorisation(created.id);
    expect(captured).toEqual({ ...created, status: 'captured', updatedAt: iso(t0 + SECOND) });
    const [processing, ...others] = await p.cardTransactions(card.cardId);
    expect(others).toEqual([]);
    expect(processing).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      accountId: card.accountId,
      cardId: card.cardId,
      authorisationId: created.id,
      status: 'processing',
      direction: 'debit',
      amount: '12.34',
      currency: 'EUR',
      merchantAmount: '12.34',
      merchantCurrency: 'EUR',
      exchangeRate: '1',
      merchant: created.merchant,
      tokenAmount: '12.34',
      token: sb.deps.services.engine.tokenFor(DEFAULT_CHAIN, 'EUR'),
      fees: [],
      chainTransactions: [{ chainId: expect.stringMatching(new RegExp(`^${DEFAULT_CHAIN}:0x[0-9a-f]{64}$`)), createdAt: iso(t0 + SECOND) }],
      createdAt: iso(t0 + SECOND),
      updatedAt: iso(t0 + SECOND),
    });
    expect(processing.token).toMatch(/^eip155:11155111\/erc20:0x[0-9a-f]{40}$/);

    await p.advance(SECOND);
    const processed = (await p.api('GET', `/v1/transactions/${processing.id}`)).body;
    expect(processed).toEqual({ ...processing, status: 'processed', updatedAt: iso(t0 + 2 * SECOND) });

    const authorisationEvents = p.eventsOf(created.id);
    expect(authorisationEvents.map((e) => [e.type, e.body.status])).toEqual([
      ['authorisation.updated', 'pending'],
      ['authorisation.updated', 'capturing'],
      ['authorisation.updated', 'captured'],
    ]);
    expect(authorisationEvents[2]!.body).toEqual({ webhookType: 'authorisation.updated', eventId: expect.any(String), ...captured });
    const transactionEvents = p.eventsOf(processing.id);
    expect(transactionEvents.map((e) => [e.type, e.body.status])).toEqual([
      ['transaction.updated', 'processing'],
      ['transaction.updated', 'processed'],
    ]);
    expect(transactionEvents[1]!.body).toEqual({ webhookType: 'transaction.updated', eventId: expect.any(String), ...processed });

    await p.advance(DAY);
    expect(p.eventsOf(created.id)).toHaveLength(3);
    expect(p.eventsOf(processing.id)).toHaveLength(2);
  });

  it('cannot be captured or released by hand, before or after it is captured', async () => {
    const { id } = (await p.authorise(card.cardId, { amount: '1', currency: 'EUR' })).body;
    for (const action of ['capture', 'release'] as const) {
      const res = await p.patch(id, action);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'authorisation_not_pending', detail: expect.stringContaining('capture: true') });
    }
    await p.advance(SECOND);
    const before = p.counts();
    const res = await p.patch(id, 'capture');
    expect(res.body).toMatchObject({ status: 400, code: 'authorisation_not_pending', detail: expect.stringContaining('is captured') });
    expect(p.counts()).toEqual(before);
  });
});

describe('manual capture and release', () => {
  it('capture: 202, capturing at once, captured with its transaction 1 s later', async () => {
    const created = (await p.authorise(card.cardId, { amount: '7.5', currency: 'EUR', capture: false })).body;
    await p.advance(10 * SECOND);
    expect((await p.authorisation(created.id)).status).toBe('pending');

    const res = await p.patch(created.id, 'capture');
    expect(res.status).toBe(202);
    expect(res.body).toBeUndefined();
    expect((await p.authorisation(created.id)).status).toBe('capturing');
    expect(await p.cardTransactions(card.cardId)).toEqual([]);

    await p.advance(SECOND);
    expect((await p.authorisation(created.id)).status).toBe('captured');
    const [transaction] = await p.cardTransactions(card.cardId);
    expect(transaction).toMatchObject({ authorisationId: created.id, status: 'processing', amount: '7.5' });
    await p.advance(SECOND);
    expect((await p.cardTransactions(card.cardId))[0].status).toBe('processed');
    expect(p.eventsOf(created.id).map((e) => e.body.status)).toEqual(['pending', 'capturing', 'captured']);
  });

  it('release: 202, releasing at once, released 1 s later, and no transaction', async () => {
    const created = (await p.authorise(card.cardId, { amount: '7.5', currency: 'EUR', capture: false })).body;
    const res = await p.patch(created.id, 'release');
    expect(res.status).toBe(202);
    expect((await p.authorisation(created.id)).status).toBe('releasing');
    await p.advance(SECOND);
    expect((await p.authorisation(created.id)).status).toBe('released');
    await p.advance(DAY);
    expect(await p.cardTransactions(card.cardId)).toEqual([]);
    expect(p.eventsOf(created.id).map((e) => e.body.status)).toEqual(['pending', 'releasing', 'released']);
  });

  it('refuses a second move while capturing, releasing or done → 400 authorisation_not_pending', async () => {
    const a = (await p.authorise(card.cardId, { amount: '1', currency: 'EUR', capture: false })).body;
    const b = (await p.authorise(card.cardId, { amount: '1', currency: 'EUR', capture: false })).body;
    await p.patch(a.id, 'capture');
    await p.patch(b.id, 'release');
    const tryAll = async (status: string) => {
      for (const [id, action] of [
        [a.id, 'capture'],
        [a.id, 'release'],
        [b.id, 'capture'],
        [b.id, 'release'],
      ] as const) {
        const before = p.counts();
        const res = await p.patch(id, action);
        expect(res.body).toMatchObject({ status: 400, code: 'authorisation_not_pending', detail: expect.stringMatching(new RegExp(`is (${status})`)) });
        expect(p.counts()).toEqual(before);
      }
    };
    await tryAll('capturing|releasing');
    await p.advance(SECOND);
    await tryAll('captured|released');
  });
});

describe('holds on a terminated card', () => {
  it('stay capturable for 29 days', async () => {
    const { id } = (await p.authorise(card.cardId, { amount: '9', currency: 'EUR', capture: false })).body;
    sb.deps.services.cards.terminate(card.cardId);
    await p.advance(29 * DAY);
    expect((await p.authorisation(id)).status).toBe('pending');
    expect((await p.patch(id, 'capture')).status).toBe(202);
    await p.advance(SECOND);
    expect((await p.authorisation(id)).status).toBe('captured');
    expect(await p.cardTransactions(card.cardId)).toHaveLength(1);
    await p.advance(2 * DAY);
    expect((await p.authorisation(id)).status).toBe('captured');
  });

  it('are released when 30 days have passed, and cannot be captured after', async () => {
    const { id } = (await p.authorise(card.cardId, { amount: '9', currency: 'EUR', capture: false })).body;
    const terminatedAt = sb.deps.clock.now();
    sb.deps.services.cards.terminate(card.cardId);
    await sb.deps.services.scheduler.advance(terminatedAt + 30 * DAY - 1);
    expect((await p.authorisation(id)).status).toBe('pending');
    await p.advance(DAY + 1);
    const released = await p.authorisation(id);
    expect(released).toMatchObject({ status: 'released', updatedAt: iso(terminatedAt + 30 * DAY) });
    expect(p.eventsOf(id).map((e) => e.body.status)).toEqual(['pending', 'releasing', 'released']);
    const res = await p.patch(id, 'capture');
    expect(res.body).toMatchObject({ status: 400, code: 'authorisation_not_pending' });
    expect(await p.cardTransactions(card.cardId)).toEqual([]);
  });

  it('follow the same 30-day rule when the card ends with its closed account', async () => {
    const { id } = (await p.authorise(card.cardId, { amount: '9', currency: 'EUR', capture: false })).body;
    sb.deps.services.accounts.close(card.accountId);
    await p.advance(29 * DAY);
    expect((await p.authorisation(id)).status).toBe('pending');
    await p.advance(2 * DAY);
    expect((await p.authorisation(id)).status).toBe('released');
  });
});
