/**
 * Concurrency: bursts of 20 requests in flight at once on one resource. Transitions race, and
 * exactly the ones that change something succeed — each with exactly one event per entity it
 * changed, the rest refused with the state they found — leaving a consistent state; 20 requests
 * under one Idempotency-Key take effect once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { issuedCard, eventsOf, type BuiltCard } from '../testing/world.js';

const BURST = 20;

let sb: TestSandbox;
let card: BuiltCard;

beforeEach(async () => {
  sb = createTestSandbox();
  card = await issuedCard(sb);
});

/** Sends `paths[i]` with `method`, all at once; returns each status and problem code, in order. */
async function burst(method: string, paths: string[], options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const responses = await Promise.all(paths.map((path) => sb.json(method, path, options)));
  return responses.map((r) => ({
    status: r.status,
    code: r.body?.code as string | undefined,
    body: r.body,
    replayed: r.headers.get('Idempotent-Replayed') === 'true',
  }));
}

const statuses = (entityId: string) => eventsOf(sb, entityId).map((e) => e.status);
const status = (table: string, id: string) => (sb.deps.store.sqlite.prepare(`SELECT status FROM ${table} WHERE id = ?`).get(id) as { status: string }).status;

describe('20 concurrent transitions on one resource', () => {
  it('deactivate × 20 on a card: one succeeds, one event; 19 are refused as invalid transitions', async () => {
    const before = statuses(card.cardId).length;
    const answers = await burst('PATCH', Array(BURST).fill(`/v1/cards/${card.cardId}/deactivate`));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.code === 'invalid_state_transition')).toHaveLength(BURST - 1);
    expect(statuses(card.cardId).slice(before)).toEqual(['inactive']);
    expect(status('cards', card.cardId)).toBe('inactive');
  });

  it('deactivate and activate interleaved × 20 on a card: one event per success, alternating, ending where the last one left it', async () => {
    const before = statuses(card.cardId).length;
    const paths = Array.from({ length: BURST }, (_, i) => `/v1/cards/${card.cardId}/${i % 2 ? 'activate' : 'deactivate'}`);
    const answers = await burst('PATCH', paths);
    const succeeded = answers.filter((a) => a.status === 200);
    expect(answers.every((a) => a.status === 200 || a.code === 'invalid_state_transition')).toBe(true);
    const changes = statuses(card.cardId).slice(before);
    expect(changes).toHaveLength(succeeded.length);
    changes.forEach((s, i) => expect(s).toBe(i % 2 ? 'active' : 'inactive'));
    expect(status('cards', card.cardId)).toBe(changes.at(-1));
  });

  it('deactivate and activate interleaved × 20 on a customer: its account and card follow every change, one event each', async () => {
    const ids = [card.customerId, card.accountId, card.cardId];
    const before = ids.map((id) => statuses(id).length);
    const paths = Array.from({ length: BURST }, (_, i) => `/v1/customers/${card.customerId}/${i % 2 ? 'activate' : 'deactivate'}`);
    const answers = await burst('PATCH', paths);
    const succeeded = answers.filter((a) => a.status === 200).length;
    expect(succeeded).toBeGreaterThan(0);
    const [customer, account, cardChanges] = ids.map((id, i) => statuses(id).slice(before[i]));
    expect(customer).toHaveLength(succeeded);
    expect(account).toEqual(customer);
    expect(cardChanges).toEqual(customer);
    const final = status('customers', card.customerId);
    expect([status('accounts', card.accountId), status('cards', card.cardId)]).toEqual([final, final]);
  });

  it('capture × 20 on one pending authorisation: one is accepted; one capture, one transaction', async () => {
    const auth = sb.deps.services.authorisations.authorise(card.cardId, { amount: '10', currency: 'EUR', capture: false });
    const answers = await burst('PATCH', Array(BURST).fill(`/v1/simulator/authorisations/${auth.id}/capture`));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400 && a.code === 'authorisation_not_pending')).toHaveLength(BURST - 1);
    await sb.deps.services.scheduler.advance(sb.deps.clock.now() + 5_000);
    expect(statuses(auth.id)).toEqual(['pending', 'capturing', 'captured']);
    const transactions = sb.deps.services.transactions.forCard(card.cardId);
    expect(transactions).toHaveLength(1);
    expect(statuses(transactions[0]!.id)).toEqual(['processing', 'processed']);
  });

  it('capture and release × 20 on one pending authorisation: exactly one of them wins', async () => {
    const auth = sb.deps.services.authorisations.authorise(card.cardId, { amount: '10', currency: 'EUR', capture: false });
    const paths = Array.from({ length: BURST }, (_, i) => `/v1/simulator/authorisations/${auth.id}/${i % 2 ? 'release' : 'capture'}`);
    const answers = await burst('PATCH', paths);
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    await sb.deps.services.scheduler.advance(sb.deps.clock.now() + 5_000);
    const events = statuses(auth.id);
    expect([
      ['pending', 'capturing', 'captured'],
      ['pending', 'releasing', 'released'],
    ]).toContainEqual(events);
    expect(sb.deps.services.transactions.forCard(card.cardId)).toHaveLength(events.at(-1) === 'captured' ? 1 : 0);
  });
});

describe('20 concurrent requests under one Idempotency-Key', () => {
  const countRows = (table: string) => (sb.deps.store.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

  it('create one customer, with one event; the others replay it or are told it is in flight', async () => {
    const customersBefore = countRows('customers');
    const eventsBefore = countRows('events');
    const body = { chainId: `eip155:11155111:0x${randomBytes(20).toString('hex')}`, externalId: randomUUID() };
    const answers = await burst('POST', Array(BURST).fill('/v1/customers'), { body, headers: { 'Idempotency-Key': randomUUID() } });
    const created = answers.filter((a) => a.status === 201);
    expect(created.filter((a) => !a.replayed)).toHaveLength(1);
    expect(new Set(created.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers.every((a) => a.status === 201 || a.code === 'idempotency_in_flight')).toBe(true);
    expect(countRows('customers')).toBe(customersBefore + 1);
    expect(countRows('events')).toBe(eventsBefore + 1);
  });

  it('authorise a card payment once', async () => {
    const body = { amount: '7.5', currency: 'EUR', capture: false };
    const answers = await burst('POST', Array(BURST).fill(`/v1/simulator/cards/${card.cardId}/authorisation`), {
      body,
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(answers.filter((a) => a.status === 201 && !a.replayed)).toHaveLength(1);
    expect(answers.every((a) => a.status === 201 || a.code === 'idempotency_in_flight')).toBe(true);
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id as string));
    expect(ids.size).toBe(1);
    expect(countRows('authorisations')).toBe(1);
  });
});
