/**
 * The states the issuer and the sandbox decide: cards blocked, suspended and reinstated, accounts
 * that fail; and the card payments a real issuer refuses — on a card, an account or a customer
 * that is not active — each refused with its code, nothing made, and the refusal in the journal.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { MISSING, payments, type Payments } from '../../testing/payments.js';
import { activeCustomer, issuedCard, pendingAccount, type BuiltCard } from '../../testing/world.js';

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;

const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });
const cardStatus = async (id: string) => (await p.api('GET', `/v1/cards/${id}`)).body.status;

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
});

describe('PATCH /_sandbox/simulator/cards/{id}/block, /suspend, /reinstate', () => {
  it('moves a card active → suspended → active → suspended → blocked, answering the card, each a card.updated', async () => {
    const suspended = await control('PATCH', `/simulator/cards/${card.cardId}/suspend`);
    expect(suspended).toMatchObject({ status: 200, body: { id: card.cardId, status: 'suspended' } });
    expect((await control('PATCH', `/simulator/cards/${card.cardId}/reinstate`)).body.status).toBe('active');
    await control('PATCH', `/simulator/cards/${card.cardId}/suspend`);
    expect((await control('PATCH', `/simulator/cards/${card.cardId}/block`)).body.status).toBe('blocked');
    expect(p.eventsOf(card.cardId).map((e) => `${e.type} ${e.body.status}`)).toEqual([
      'card.updated issuing',
      'card.updated active',
      'card.updated suspended',
      'card.updated active',
      'card.updated suspended',
      'card.updated blocked',
    ]);
  });

  it('never reinstates a blocked card: blocked is final', async () => {
    await control('PATCH', `/simulator/cards/${card.cardId}/block`);
    const before = p.counts();
    const res = await control('PATCH', `/simulator/cards/${card.cardId}/reinstate`);
    expect(res.body).toMatchObject({
      status: 409,
      code: 'invalid_state_transition',
      detail: 'cannot reinstate a card that is blocked: only a card that is suspended can become active',
    });
    expect(p.counts()).toEqual(before);
    expect(await cardStatus(card.cardId)).toBe('blocked');
  });

  it('a blocked card takes no payment and cannot be activated, deactivated or deleted through /v1', async () => {
    await control('PATCH', `/simulator/cards/${card.cardId}/block`);
    const before = p.counts();
    const refused = await p.authorise(card.cardId, { amount: '1', currency: 'EUR' });
    expect(refused.body).toMatchObject({
      status: 400,
      code: 'card_not_active',
      detail: `card ${card.cardId} is blocked; only an active card can be authorised`,
    });
    expect(p.counts()).toEqual(before);
    for (const [method, path] of [
      ['PATCH', 'activate'],
      ['PATCH', 'deactivate'],
      ['DELETE', ''],
    ] as const) {
      const res = await p.api(method, `/v1/cards/${card.cardId}${path && `/${path}`}`);
      expect(res.body, `${method} ${path}`).toMatchObject({ status: 409, code: 'invalid_state_transition' });
    }
    expect(await cardStatus(card.cardId)).toBe('blocked');
  });

  it('a suspended card takes no payment, and may still be deleted', async () => {
    await control('PATCH', `/simulator/cards/${card.cardId}/suspend`);
    expect((await p.authorise(card.cardId, { amount: '1', currency: 'EUR' })).body.code).toBe('card_not_active');
    expect((await p.api('DELETE', `/v1/cards/${card.cardId}`)).status).toBe(204);
    expect(await cardStatus(card.cardId)).toBe('terminated');
  });

  it('refuses what cannot happen, naming the state each needs, and changes nothing', async () => {
    const cases: [string, string, RegExp][] = [
      ['reinstate', 'active', /cannot reinstate a card that is active: only a card that is suspended can become active/],
      ['suspend', 'blocked', /cannot suspend a card that is blocked: only a card that is active can become suspended/],
      ['block', 'terminated', /cannot block a card that is terminated: only a card that is active or suspended can become blocked/],
    ];
    for (const [move, state, detail] of cases) {
      if (state === 'blocked') await control('PATCH', `/simulator/cards/${card.cardId}/block`);
      if (state === 'terminated') sb.deps.services.cards.retireForAccount(card.accountId, sb.deps.clock.now());
      const before = p.counts();
      const res = await control('PATCH', `/simulator/cards/${card.cardId}/${move}`);
      expect(res.body, move).toMatchObject({ status: 409, code: 'invalid_state_transition' });
      expect(res.body.detail).toMatch(detail);
      expect(p.counts()).toEqual(before);
    }
    expect((await control('PATCH', `/simulator/cards/${MISSING}/block`)).body).toMatchObject({ status: 404, code: 'card_not_found' });
    expect((await control('PATCH', '/simulator/cards/not-an-id/suspend')).body).toMatchObject({ status: 400, errors: [{ path: 'cardId' }] });
  });

  it('reinstated while its account is inactive, it arrives inactive and comes back with the account', async () => {
    await control('PATCH', `/simulator/cards/${card.cardId}/suspend`);
    await p.api('PATCH', `/v1/accounts/${card.accountId}/deactivate`);
    expect(await cardStatus(card.cardId)).toBe('suspended');
    expect((await control('PATCH', `/simulator/cards/${card.cardId}/reinstate`)).body.status).toBe('inactive');
    await p.api('PATCH', `/v1/accounts/${card.accountId}/activate`);
    expect(await cardStatus(card.cardId)).toBe('active');
  });
});

describe('PATCH /_sandbox/simulator/accounts/{id}/fail', () => {
  it('fails an account still initiating or pending, for good; a pending one never deploys', async () => {
    const owner = await activeCustomer(sb);
    const initiating = sb.deps.services.accounts.create(owner.customerId, { type: 'card_account', currencies: ['EUR'] });
    const failed = await control('PATCH', `/simulator/accounts/${initiating.id}/fail`);
    expect(failed).toMatchObject({ status: 200, body: { id: initiating.id, status: 'failed' } });
    const pending = await pendingAccount(sb, { customer: owner });
    expect((await control('PATCH', `/simulator/accounts/${pending.accountId}/fail`)).body.status).toBe('failed');
    await p.advance(60_000);
    expect((await p.api('GET', `/v1/accounts/${pending.accountId}`)).body).not.toHaveProperty('chainId');
    expect(p.eventsOf(pending.accountId).map((e) => e.body.status)).toEqual(['initiating', 'pending', 'failed']);
    const card = await p.api('POST', `/v1/accounts/${pending.accountId}/cards`, {
      body: { type: 'virtual', billingAddress: { firstLine: '1 A St', city: 'London', country: 'GB', postCode: 'N1 1AA' } },
    });
    expect(card.body).toMatchObject({ status: 400, code: 'account_not_active' });
  });

  it('refuses an active, closed or failed account, naming the states it needs, and changes nothing', async () => {
    const before = p.counts();
    const res = await control('PATCH', `/simulator/accounts/${card.accountId}/fail`);
    expect(res.body).toMatchObject({
      status: 409,
      code: 'invalid_state_transition',
      detail: 'cannot fail an account that is active: only an account that is initiating or pending can become failed',
    });
    expect(p.counts()).toEqual(before);
    expect((await p.api('GET', `/v1/accounts/${card.accountId}`)).body.status).toBe('active');
    expect((await control('PATCH', `/simulator/accounts/${MISSING}/fail`)).body.code).toBe('account_not_found');
  });
});

describe('card payments a real issuer refuses', () => {
  const refusedWith = async (path: string, code: string, why: RegExp) => {
    const before = p.counts();
    const res = await p.authorise(card.cardId, { amount: '1', currency: 'EUR' });
    expect(res.body, path).toMatchObject({ status: 400, code });
    expect(res.body.detail).toMatch(why);
    const mirrored = await control('POST', `/simulator/cards/${card.cardId}/authorisation`, { amount: '1', currency: 'EUR' });
    expect(mirrored.body).toMatchObject({ status: 400, code });
    expect(p.counts()).toEqual(before);
    const [entry] = (await control('GET', '/requests')).body;
    expect(entry).toMatchObject({ method: 'POST', path: `/v1/simulator/cards/${card.cardId}/authorisation`, status: 400, problem: { code } });
  };

  it('on a card deactivated', async () => {
    await p.api('PATCH', `/v1/cards/${card.cardId}/deactivate`);
    await refusedWith('card', 'card_not_active', /is inactive; only an active card can be authorised/);
  });

  it('on a card whose account is not active', async () => {
    await p.api('PATCH', `/v1/accounts/${card.accountId}/deactivate`);
    await refusedWith('account', 'account_not_active', /account .* is inactive; a card payment needs an active account/);
  });

  it('on a card whose customer is not active', async () => {
    await p.api('PATCH', `/v1/customers/${card.customerId}/deactivate`);
    await refusedWith('customer', 'customer_not_active', /customer .* is inactive; a card payment needs an active customer/);
  });
});
