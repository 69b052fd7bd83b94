import { describe, expect, it } from 'vitest';
import { CARD_ACTIONS, CARD_MACHINE, cardTransition, paymentsChange, withinCardLimit, type CardAction, type CardStatus } from './card.js';

const T = 'invalid_state_transition';
const N = 'card_not_issuing';
// Every state × every action: the next state, or the refusal code.
const EXPECTED: Record<CardStatus, Record<CardAction, string>> = {
  issuing: { issue: 'active', fail: 'issue_failed', deactivate: T, activate: T, terminate: T, retire: 'terminated', block: T, suspend: T, reinstate: T },
  issue_failed: { issue: N, fail: N, deactivate: T, activate: T, terminate: T, retire: T, block: T, suspend: T, reinstate: T },
  active: {
    issue: N,
    fail: N,
    deactivate: 'inactive',
    activate: T,
    terminate: 'terminated',
    retire: 'terminated',
    block: 'blocked',
    suspend: 'suspended',
    reinstate: T,
  },
  inactive: { issue: N, fail: N, deactivate: T, activate: 'active', terminate: 'terminated', retire: 'terminated', block: T, suspend: T, reinstate: T },
  blocked: { issue: N, fail: N, deactivate: T, activate: T, terminate: T, retire: 'terminated', block: T, suspend: T, reinstate: T },
  suspended: {
    issue: N,
    fail: N,
    deactivate: T,
    activate: T,
    terminate: 'terminated',
    retire: 'terminated',
    block: 'blocked',
    suspend: T,
    reinstate: 'active',
  },
  terminated: { issue: N, fail: N, deactivate: T, activate: T, terminate: T, retire: T, block: T, suspend: T, reinstate: T },
};

describe('card state machine', () => {
  for (const status of CARD_MACHINE.states) {
    for (const action of CARD_ACTIONS) {
      it(`${status} × ${action} → ${EXPECTED[status][action]}`, () => {
        const outcome = cardTransition(status, action);
        expect(outcome.ok ? outcome.next : outcome.code).toBe(EXPECTED[status][action]);
      });
    }
  }
});

describe('withinCardLimit', () => {
  it('allows one live card of each type', () => {
    expect(withinCardLimit([], 'virtual')).toBe(true);
    expect(withinCardLimit([{ type: 'virtual', status: 'issuing' }], 'virtual')).toBe(false);
    expect(withinCardLimit([{ type: 'virtual', status: 'inactive' }], 'virtual')).toBe(false);
    expect(withinCardLimit([{ type: 'virtual', status: 'active' }], 'physical')).toBe(true);
  });

  it('does not count failed or terminated cards', () => {
    const ended = [
      { type: 'virtual', status: 'issue_failed' },
      { type: 'virtual', status: 'terminated' },
    ];
    expect(withinCardLimit(ended, 'virtual')).toBe(true);
  });
});

describe('paymentsChange', () => {
  it('says when a move stops a card taking payments, and when it resumes them', () => {
    expect(paymentsChange('active', 'blocked')).toBe('stopped');
    expect(paymentsChange('active', 'suspended')).toBe('stopped');
    expect(paymentsChange('inactive', 'terminated')).toBe('stopped');
    expect(paymentsChange('suspended', 'blocked')).toBeUndefined();
    expect(paymentsChange('suspended', 'terminated')).toBeUndefined();
    expect(paymentsChange('blocked', 'active')).toBe('resumed');
    expect(paymentsChange('active', 'inactive')).toBeUndefined();
  });

  it('names the state a refused move needs', () => {
    expect(cardTransition('terminated', 'block')).toMatchObject({
      ok: false,
      code: 'invalid_state_transition',
      detail: 'cannot block a card that is terminated: only a card that is active or suspended can become blocked',
    });
  });
});
