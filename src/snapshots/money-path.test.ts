/**
 * Snapshots of the money path (docs/snapshots.md, docs/money-path.md): a snapshot taken mid-story —
 * a partial capture and a reversal in flight, a blocked card's hold waiting its 30 days, a failed
 * account, fees set — restores it, and the story goes on from there as it would have; and a file
 * written before authorisations kept a partial capture's amount still restores.
 */
import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { DAY, payments, SECOND, type Payments } from '../testing/payments.js';
import { activeCustomer, issuedCard } from '../testing/world.js';

let sb: TestSandbox;
let p: Payments;

const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { body, token: false });

/** What the story is at one instant: the world, the fees, the jobs waiting and the events written. */
const everything = async () => ({
  world: (await control('GET', '/world')).body,
  fees: (await control('GET', '/fees')).body,
  clock: (await control('GET', '/clock')).body,
  jobs: sb.deps.services.jobs.pending().map(({ kind, subjectId, dueAt }) => ({ kind, subjectId, dueAt })),
  events: ((await control('GET', '/events?limit=1000')).body as { id: string }[]).map((e) => e.id),
});

/** Mid-story: fees set, a debit reversing, a hold capturing in part, a blocked card's hold waiting, a failed account. */
async function midStory() {
  await control('PUT', '/fees', { partner: '1%' });
  const card = await issuedCard(sb, { currencies: ['EUR'] });
  const blocked = await issuedCard(sb);
  const owner = await activeCustomer(sb);
  await p.authorise(card.cardId, { amount: '30', currency: 'EUR' });
  await p.advance(2 * SECOND);
  const [debit] = await p.cardTransactions(card.cardId);
  // What follows happens in one instant, each left for a job to finish.
  const held = (await p.authorise(blocked.cardId, { amount: '8', currency: 'EUR', capture: false })).body;
  await control('PATCH', `/simulator/cards/${blocked.cardId}/block`);
  const failing = sb.deps.services.accounts.create(owner.customerId, { type: 'card_account', currencies: ['EUR'] });
  await control('PATCH', `/simulator/accounts/${failing.id}/fail`);
  await control('POST', `/simulator/transactions/${debit.id}/reverse`);
  const partial = (await p.authorise(card.cardId, { amount: '50', currency: 'EUR', capture: false })).body;
  await control('PATCH', `/simulator/authorisations/${partial.id}/capture`, { amount: '20' });
  return { card, debit, partial, blocked, held };
}

beforeEach(() => {
  sb = createTestSandbox();
  p = payments(sb);
});

describe('a snapshot taken mid-story', () => {
  it('restores it, fees included, and the story goes on from there as it would have', async () => {
    const { card, debit, partial, blocked, held } = await midStory();
    const before = await everything();
    const saved = (await control('POST', '/snapshots', { name: 'mid-story' })).body;

    // The story goes on, and elsewhere.
    await p.advance(SECOND);
    await control('PUT', '/fees', {});
    await control('PATCH', `/simulator/cards/${card.cardId}/suspend`);
    await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '1', currency: 'EUR' });
    await p.advance(40 * DAY);
    expect(await everything()).not.toEqual(before);

    expect((await control('POST', `/snapshots/${saved.id}/restore`)).status).toBe(200);
    expect(await everything()).toEqual(before);
    expect((await p.api('GET', `/v1/transactions/${debit.id}`)).body.status).toBe('reversing');
    expect((await p.authorisation(partial.id)).status).toBe('capturing');
    expect((await p.api('GET', `/v1/cards/${blocked.cardId}`)).body.status).toBe('blocked');

    await p.advance(SECOND);
    expect((await p.api('GET', `/v1/transactions/${debit.id}`)).body.status).toBe('reversed');
    const captured = (await p.cardTransactions(card.cardId)).find((t) => t.authorisationId === partial.id);
    expect(captured).toMatchObject({ amount: '20', fees: [{ type: 'partner', tokenAmount: '0.2' }] });
    await p.advance(29 * DAY);
    expect((await p.authorisation(held.id)).status).toBe('pending');
    await p.advance(DAY);
    expect((await p.authorisation(held.id)).status).toBe('released');
  });

  it('restores from a file written before a partial capture kept its amount: that field reads empty', async () => {
    const card = await issuedCard(sb);
    await control('PUT', '/fees', { network: '0.10' });
    const held = (await p.authorise(card.cardId, { amount: '5', currency: 'EUR', capture: false })).body;
    const before = await everything();
    const saved = (await control('POST', '/snapshots', {})).body;
    const file = JSON.parse((await sb.request('GET', `/_sandbox/snapshots/${saved.id}/file`, { token: false }).then((r) => r.text())) as string);
    const records = file.state.world.authorisations as Record<string, unknown>[];
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record).toHaveProperty('capturedAmount');
      delete record.capturedAmount;
    }
    file.sha256 = createHash('sha256').update(JSON.stringify(file.state)).digest('hex');

    await control('POST', '/reset');
    const restored = await sb.json('POST', '/_sandbox/snapshots/restore', { body: JSON.stringify(file), token: false });
    expect(restored.status).toBe(200);
    expect(await everything()).toEqual(before);
    await control('PATCH', `/simulator/authorisations/${held.id}/capture`);
    await p.advance(SECOND);
    expect((await p.cardTransactions(card.cardId))[0]).toMatchObject({ amount: '5', fees: [{ type: 'network', tokenAmount: '0.1' }] });
  });
});
