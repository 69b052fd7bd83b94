import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_ACTIONS, ACCOUNT_MACHINE, accountTransition, type AccountAction, type AccountStatus } from './account.js';
import { smartAccountAddress } from './smart-account.js';

const T = 'invalid_state_transition';
// Every state × every action: the next state, or the refusal code.
const EXPECTED: Record<AccountStatus, Record<AccountAction, string>> = {
  initiating: { sign: 'pending', deploy: T, deactivate: T, activate: T, close: T, fail: 'failed' },
  pending: { sign: 'challenge_already_signed', deploy: 'active', deactivate: T, activate: T, close: T, fail: 'failed' },
  active: { sign: 'challenge_already_signed', deploy: T, deactivate: 'inactive', activate: T, close: 'closed', fail: T },
  inactive: { sign: 'challenge_already_signed', deploy: T, deactivate: T, activate: 'active', close: 'closed', fail: T },
  closed: { sign: 'challenge_already_signed', deploy: T, deactivate: T, activate: T, close: T, fail: T },
  failed: { sign: 'challenge_already_signed', deploy: T, deactivate: T, activate: T, close: T, fail: T },
};

describe('account state machine', () => {
  for (const status of ACCOUNT_MACHINE.states) {
    for (const action of ACCOUNT_ACTIONS) {
      it(`${status} × ${action} → ${EXPECTED[status][action]}`, () => {
        const outcome = accountTransition(status, action);
        expect(outcome.ok ? outcome.next : outcome.code).toBe(EXPECTED[status][action]);
      });
    }
  }
});

describe('smartAccountAddress', () => {
  const owner = '0xAb16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';
  const id = '3b241101-e2bb-4255-8caf-4136c566a962';

  it('is a checksummed 20-byte address, the same for the same owner and account', () => {
    const address = smartAccountAddress(owner, id);
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(getAddress(address)).toBe(address);
    expect(smartAccountAddress(owner.toLowerCase(), id)).toBe(address);
  });

  it('differs between accounts of one owner', () => {
    expect(smartAccountAddress(owner, id)).not.toBe(smartAccountAddress(owner, '3b241101-e2bb-4255-8caf-4136c566a963'));
  });
});
