/**
 * Holds that expire (docs/money-path.md: Holds that expire): a pending authorisation on a card that
 * takes payments is released after the programme's hold expiry — 7 days unless --hold-expiry or the
 * programme says otherwise — as a job on the programme's scheduler that time travel reaches; on a
 * card the issuer stopped, the 30-day rule of a terminated card applies instead, until it is
 * reinstated.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { iso } from '../domain/instant.js';
import { createTestSandbox, T0, type TestSandbox } from '../testing/harness.js';
import { DAY, payments, SECOND, type Payments } from '../testing/payments.js';
import { issuedCard, type BuiltCard } from '../testing/world.js';

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;

const hold = async () => (await p.authorise(card.cardId, { amount: '9', currency: 'EUR', capture: false })).body as { id: string; createdAt: string };
const statusOf = async (id: string) => (await p.authorisation(id)).status as string;
const to = (at: number) => sb.deps.services.scheduler.advance(at);

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
});

describe('a hold left pending', () => {
  it('is released 7 days after it was made, through releasing, each an authorisation.updated', async () => {
    const { id, createdAt } = await hold();
    const made = Date.parse(createdAt);
    await to(made + 7 * DAY - 1);
    expect(await statusOf(id)).toBe('pending');
    await to(made + 7 * DAY + SECOND);
    expect(await p.authorisation(id)).toMatchObject({ status: 'released', updatedAt: iso(made + 7 * DAY) });
    expect(p.eventsOf(id).map((e) => e.body.status)).toEqual(['pending', 'releasing', 'released']);
    expect(await p.cardTransactions(card.cardId)).toEqual([]);
  });

  it('is not released once captured or released by hand, and leaves no job behind', async () => {
    const captured = await hold();
    const released = await hold();
    await p.patch(captured.id, 'capture');
    await p.patch(released.id, 'release');
    await p.advance(30 * DAY);
    expect(await statusOf(captured.id)).toBe('captured');
    expect(p.eventsOf(released.id).map((e) => e.body.status)).toEqual(['pending', 'releasing', 'released']);
    expect(sb.deps.services.jobs.pending(captured.id)).toEqual([]);
    expect(sb.deps.services.jobs.pending(released.id)).toEqual([]);
  });

  // docs/money-path.md: Amount updates — an incremental authorisation or a partial reversal does not move the expiry.
  it('keeps its first expiry through amount updates, raised or lowered, and then gives back all it held', async () => {
    const { id, createdAt } = await hold();
    const made = Date.parse(createdAt);
    const update = (amount: string) => sb.json('PATCH', `/_sandbox/simulator/authorisations/${id}/amount`, { token: false, body: { amount } });
    await to(made + 6 * DAY);
    expect((await update('20')).body).toMatchObject({ status: 'pending', amount: '20' });
    await to(made + 7 * DAY - SECOND);
    expect((await update('15')).body).toMatchObject({ status: 'pending', amount: '15' });
    await to(made + 7 * DAY - 1);
    expect(await statusOf(id)).toBe('pending');
    await to(made + 7 * DAY + SECOND);
    expect(await p.authorisation(id)).toMatchObject({ status: 'released', amount: '15', updatedAt: iso(made + 7 * DAY) });
    expect(p.eventsOf(id).map((e) => [e.body.status, e.body.amount])).toEqual([
      ['pending', '9'],
      ['pending', '20'],
      ['pending', '15'],
      ['releasing', '15'],
      ['released', '15'],
    ]);
    const balance = await sb.json('GET', `/_sandbox/simulator/accounts/${card.accountId}/balance`, { token: false });
    expect(balance.body).toMatchObject({ held: '0' });
    expect(balance.body.available).toBe(balance.body.balance);
  });

  it('waits as long as --hold-expiry says', async () => {
    sb = createTestSandbox({ holdExpiryMs: 36 * 3_600_000 });
    p = payments(sb);
    card = await issuedCard(sb);
    const { id } = await hold();
    await p.advance(35 * 3_600_000);
    expect(await statusOf(id)).toBe('pending');
    await p.advance(3_600_000);
    expect(await statusOf(id)).toBe('released');
  });
});

describe('a programme of its own hold expiry', () => {
  it('is made with holdExpiry, shows it, and its holds follow it', async () => {
    const made = await sb.json('POST', '/_sandbox/programmes', { token: false, body: { holdExpiry: 'P1D', clock: iso(T0) } });
    expect(made.body.holdExpiry).toBe('1d');
    expect((await sb.json('GET', '/_sandbox/programmes/default', { token: false })).body.holdExpiry).toBe('7d');
    expect(sb.deps.programmes.get(made.body.id).services.authorisations.holdExpiryMs).toBe(DAY);
  });

  it('refuses a holdExpiry that is not a duration from 1 s to 3650 days, naming it', async () => {
    for (const holdExpiry of ['soon', '0s', '3651d', '']) {
      const res = await sb.json('POST', '/_sandbox/programmes', { token: false, body: { holdExpiry } });
      expect(res.body, holdExpiry).toMatchObject({ status: 400, errors: [{ path: 'holdExpiry' }] });
    }
    expect((await sb.json('GET', '/_sandbox/programmes', { token: false })).body).toHaveLength(1);
  });
});

describe('a hold on a card the issuer stopped', () => {
  it('stays capturable for 30 days from the block, past its expiry', async () => {
    const { id } = await hold();
    await p.advance(DAY);
    const blockedAt = sb.deps.clock.now();
    sb.deps.services.cards.block(card.cardId);
    await to(blockedAt + 30 * DAY - 1);
    expect(await statusOf(id)).toBe('pending');
    await p.advance(1);
    expect(await p.authorisation(id)).toMatchObject({ status: 'released', updatedAt: iso(blockedAt + 30 * DAY) });
  });

  it('may be captured while the card is suspended', async () => {
    const { id } = await hold();
    sb.deps.services.cards.suspend(card.cardId);
    expect((await p.patch(id, 'capture')).status).toBe(202);
    await p.advance(SECOND);
    expect((await p.cardTransactions(card.cardId))[0]).toMatchObject({ authorisationId: id, status: 'processing' });
  });

  it('expires as any hold once the card is reinstated: at its time, or at once if that has passed', async () => {
    const early = await hold();
    sb.deps.services.cards.suspend(card.cardId);
    await p.advance(3 * DAY);
    sb.deps.services.cards.reinstate(card.cardId);
    await to(Date.parse(early.createdAt) + 7 * DAY - 1);
    expect(await statusOf(early.id)).toBe('pending');
    await p.advance(1);
    expect(await statusOf(early.id)).toBe('released');

    const late = await hold();
    sb.deps.services.cards.suspend(card.cardId);
    await p.advance(10 * DAY);
    sb.deps.services.cards.reinstate(card.cardId);
    const reinstatedAt = sb.deps.clock.now();
    await p.advance(1);
    expect(await p.authorisation(late.id)).toMatchObject({ status: 'released', updatedAt: iso(reinstatedAt) });
  });
});
