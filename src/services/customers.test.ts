import { describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { eventsOf, issuedCard, pendingAccount } from '../testing/world.js';

const statusOf = (sb: TestSandbox) => ({
  account: (id: string) => sb.deps.services.accounts.get(id).status,
  card: (id: string) => sb.deps.services.cards.get(id).status,
});

describe('customer deactivation cascade', () => {
  it('deactivates the active accounts and cards, and activation restores exactly those', async () => {
    const sb = createTestSandbox();
    const { customers, accounts, cards } = sb.deps.services;
    const status = statusOf(sb);
    // A: an active account with an active card. B: an active account whose card the integrator deactivated.
    const a = await issuedCard(sb);
    const b = await issuedCard(sb, { customer: a });
    cards.deactivate(b.cardId);
    // C: an account the integrator deactivated itself (its card goes with it).
    const c = await issuedCard(sb, { customer: a });
    accounts.deactivate(c.accountId);

    customers.deactivate(a.customerId);
    expect([status.account(a.accountId), status.card(a.cardId)]).toEqual(['inactive', 'inactive']);
    expect([status.account(b.accountId), status.card(b.cardId)]).toEqual(['inactive', 'inactive']);
    expect([status.account(c.accountId), status.card(c.cardId)]).toEqual(['inactive', 'inactive']);

    customers.activate(a.customerId);
    expect([status.account(a.accountId), status.card(a.cardId)]).toEqual(['active', 'active']);
    expect([status.account(b.accountId), status.card(b.cardId)]).toEqual(['active', 'inactive']);
    expect([status.account(c.accountId), status.card(c.cardId)]).toEqual(['inactive', 'inactive']);

    // The account's own activation brings back the card its own cascade took.
    accounts.activate(c.accountId);
    expect(status.card(c.cardId)).toBe('active');
  });

  it('writes exactly one event per entity that changed', async () => {
    const sb = createTestSandbox();
    const { customers } = sb.deps.services;
    const { customerId, accountId, cardId } = await issuedCard(sb);
    const before = [eventsOf(sb, customerId).length, eventsOf(sb, accountId).length, eventsOf(sb, cardId).length];
    customers.deactivate(customerId);
    const after = [eventsOf(sb, customerId).length, eventsOf(sb, accountId).length, eventsOf(sb, cardId).length];
    expect(after.map((n, i) => n - before[i]!)).toEqual([1, 1, 1]);
    expect(eventsOf(sb, cardId).at(-1)).toEqual({ webhookType: 'card.updated', eventId: expect.any(String), ...sb.deps.services.cards.get(cardId) });
  });

  it('leaves closed accounts and terminated cards alone', async () => {
    const sb = createTestSandbox();
    const { customers, accounts, cards } = sb.deps.services;
    const closed = await issuedCard(sb);
    accounts.close(closed.accountId);
    const live = await issuedCard(sb, { customer: closed });
    customers.deactivate(closed.customerId);
    customers.activate(closed.customerId);
    expect(accounts.get(closed.accountId).status).toBe('closed');
    expect(cards.get(closed.cardId).status).toBe('terminated');
    expect(cards.get(live.cardId).status).toBe('active');
  });

  it('an account deployed while its customer is inactive arrives inactive and comes back with the customer', async () => {
    const sb = createTestSandbox();
    const { customers, accounts } = sb.deps.services;
    const { customerId, accountId } = await pendingAccount(sb);
    customers.deactivate(customerId);
    await sb.deps.services.scheduler.advance(sb.deps.clock.now() + 2_000);
    expect(accounts.get(accountId)).toMatchObject({ status: 'inactive', chainId: expect.stringMatching(/^eip155:11155111:0x/) });
    expect(eventsOf(sb, accountId).map((e) => e.status)).toEqual(['initiating', 'pending', 'inactive']);
    customers.activate(customerId);
    expect(accounts.get(accountId).status).toBe('active');
  });
});
