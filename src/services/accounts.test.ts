import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { activeAccount, eventsOf, issuedCard } from '../testing/world.js';

describe('account deactivation cascade', () => {
  it('deactivates the active cards; activation restores them but not one the integrator deactivated', async () => {
    const sb = createTestSandbox({ physicalCards: true });
    const { accounts, cards } = sb.deps.services;
    const virtual = await issuedCard(sb);
    const physical = await issuedCard(sb, { account: virtual, type: 'physical' });
    cards.deactivate(physical.cardId);
    accounts.deactivate(virtual.accountId);
    expect([cards.get(virtual.cardId).status, cards.get(physical.cardId).status]).toEqual(['inactive', 'inactive']);
    accounts.activate(virtual.accountId);
    expect([cards.get(virtual.cardId).status, cards.get(physical.cardId).status]).toEqual(['active', 'inactive']);
  });

  it('a card issued while its account is inactive arrives inactive and comes back with the account', async () => {
    const sb = createTestSandbox();
    const { accounts, cards } = sb.deps.services;
    const { accountId, cardId } = await issuedCard(sb, { status: 'issuing' });
    accounts.deactivate(accountId);
    expect(cards.get(cardId).status).toBe('issuing');
    cards.issue(cardId);
    expect(cards.get(cardId)).toMatchObject({ status: 'inactive', maskedPan: expect.any(String) });
    accounts.activate(accountId);
    expect(cards.get(cardId).status).toBe('active');
  });

  it('closing the account terminates every card still alive, issuing ones included', async () => {
    const sb = createTestSandbox({ physicalCards: true });
    const { accounts, cards } = sb.deps.services;
    const active = await issuedCard(sb);
    const issuing = await issuedCard(sb, { account: active, type: 'physical', status: 'issuing' });
    accounts.close(active.accountId);
    expect([cards.get(active.cardId).status, cards.get(issuing.cardId).status]).toEqual(['terminated', 'terminated']);
    expect(eventsOf(sb, active.accountId).at(-1)?.status).toBe('closed');
  });

  it('a refused activation changes nothing', async () => {
    const sb = createTestSandbox();
    const { accountId } = await activeAccount(sb);
    expect(() => sb.deps.services.accounts.activate(accountId)).toThrow(
      'cannot activate an account that is active: only an account that is inactive can become active',
    );
    expect(eventsOf(sb, accountId)).toHaveLength(3);
  });
});
