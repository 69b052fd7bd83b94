import { describe, expect, it } from 'vitest';
import { checkWallet, CUSTOMER_ACTIONS, CUSTOMER_MACHINE, customerTransition, type CustomerAction, type CustomerStatus } from './customer.js';

// Every state × every action: the next state, or the refusal code.
const EXPECTED: Record<CustomerStatus, Record<CustomerAction, string>> = {
  initiating: {
    sign: 'screening',
    screen: 'invalid_state_transition',
    verify: 'active',
    reject: 'rejected',
    deactivate: 'invalid_state_transition',
    activate: 'invalid_state_transition',
  },
  screening: {
    sign: 'invalid_state_transition',
    screen: 'verifying',
    verify: 'active',
    reject: 'rejected',
    deactivate: 'invalid_state_transition',
    activate: 'invalid_state_transition',
  },
  verifying: {
    sign: 'invalid_state_transition',
    screen: 'invalid_state_transition',
    verify: 'active',
    reject: 'rejected',
    deactivate: 'invalid_state_transition',
    activate: 'invalid_state_transition',
  },
  rejected: {
    sign: 'invalid_state_transition',
    screen: 'invalid_state_transition',
    verify: 'customer_not_pending',
    reject: 'customer_not_pending',
    deactivate: 'invalid_state_transition',
    activate: 'invalid_state_transition',
  },
  active: {
    sign: 'invalid_state_transition',
    screen: 'invalid_state_transition',
    verify: 'customer_not_pending',
    reject: 'customer_not_pending',
    deactivate: 'inactive',
    activate: 'invalid_state_transition',
  },
  inactive: {
    sign: 'invalid_state_transition',
    screen: 'invalid_state_transition',
    verify: 'customer_not_pending',
    reject: 'customer_not_pending',
    deactivate: 'invalid_state_transition',
    activate: 'active',
  },
};

describe('customer state machine', () => {
  for (const status of CUSTOMER_MACHINE.states) {
    for (const action of CUSTOMER_ACTIONS) {
      it(`${status} × ${action} → ${EXPECTED[status][action]}`, () => {
        const outcome = customerTransition(status, action);
        expect(outcome.ok ? outcome.next : outcome.code).toBe(EXPECTED[status][action]);
      });
    }
  }

  it('names the current and the wanted state when it refuses', () => {
    const outcome = customerTransition('initiating', 'deactivate');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.detail).toBe('cannot deactivate a customer that is initiating: only a customer that is active can become inactive');
  });
});

describe('checkWallet', () => {
  const supported = (chain: string) => chain === 'eip155:11155111';
  const address = '0xAb16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb';

  it('accepts an EVM account on a supported chain and splits it', () => {
    expect(checkWallet(`eip155:11155111:${address}`, supported)).toEqual({ ok: true, chain: 'eip155:11155111', address });
  });

  it.each([
    ['not CAIP-10', 'hello', 'CAIP-10'],
    ['a short address', 'eip155:11155111:0x1234', 'CAIP-10'],
    ['another namespace', `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${address}`, 'only eip155'],
    ['an unsupported chain', `eip155:1:${address}`, 'eip155:1 is not supported here; GET /v1/chains'],
  ])('refuses %s', (_, chainId, why) => {
    const check = checkWallet(chainId, supported);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toContain(why);
  });
});
