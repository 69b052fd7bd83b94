import { describe, expect, it } from 'vitest';
import { CARD_ACTIONS, CARD_MACHINE, cardTransition, withinCardLimit, type CardAction, type CardStatus } from './card.js';

const T = 'invalid_state_transition';
const N = 'card_not_issuing';
// Every state × every action: the next state, or the refusal code.
const EXPECTED: Record<CardStatus, Record<CardAction, string>> = {
  issuing: { issue: 'active', fail: 'issue_failed', deactivate: T, activate: T, terminate: T, retire: 'terminated' },
  issue_failed: { issue: N, fail: N, deactivate: T, activate: T, terminate: T, retire: T },
  active: { issue: N, fail: N, deactivate: 'inactive', activate: T, terminate: 'terminated', retire: 'terminated' },
  inactive: { issue: N, fail: N, deactivate: T, activate: 'active', terminate: 'terminated', retire: 'terminated' },
  blocked: { issue: N, fail: N, deactivate: T, activate: T, terminate: T, retire: 'terminated' },
  suspended: { issue: N, fail: N, deactivate: T, activate: T, terminate: 'terminated', retire: 'terminated' },
  terminated: { issue: N, fail: N, deactivate: T, activate: T, terminate: T, retire: T },
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
