/**
 * The customer's life cycle (docs/api.md: Customers, accounts and cards): proving wallet ownership moves it through
 * screening to verifying, the simulator decides active or rejected, and the integrator toggles
 * active ⇄ inactive. Also the rules for the wallet (`chainId`) a customer may register.
 */
import { parseAccountId } from './caip.js';
import { transition, type Machine } from './state-machine.js';

export const CUSTOMER_STATUSES = ['initiating', 'screening', 'verifying', 'rejected', 'active', 'inactive'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

export const CUSTOMER_ACTIONS = ['sign', 'screen', 'verify', 'reject', 'deactivate', 'activate'] as const;
export type CustomerAction = (typeof CUSTOMER_ACTIONS)[number];

const PENDING = { initiating: 'active', screening: 'active', verifying: 'active' } as const;

export const CUSTOMER_MACHINE: Machine<CustomerStatus, CustomerAction> = {
  entity: 'customer',
  states: CUSTOMER_STATUSES,
  actions: {
    /** A valid challenge signature starts screening. */
    sign: { from: { initiating: 'screening' }, refuse: 'invalid_state_transition' },
    /** Screening passes at once in the sandbox: the customer waits for the simulator's verdict. */
    screen: { from: { screening: 'verifying' }, refuse: 'invalid_state_transition' },
    verify: { from: PENDING, refuse: 'customer_not_pending' },
    reject: { from: { initiating: 'rejected', screening: 'rejected', verifying: 'rejected' }, refuse: 'customer_not_pending' },
    deactivate: { from: { active: 'inactive' }, refuse: 'invalid_state_transition' },
    activate: { from: { inactive: 'active' }, refuse: 'invalid_state_transition' },
  },
};

export const customerTransition = (status: CustomerStatus, action: CustomerAction) => transition(CUSTOMER_MACHINE, status, action);

export type WalletCheck = { ok: true; chain: string; address: string } | { ok: false; message: string };

/**
 * A customer's `chainId` must be an EVM (eip155) CAIP-10 account on a chain the engine supports.
 * Returns the CAIP-2 chain and the address, or why it is refused.
 */
export function checkWallet(chainId: string, isSupportedChain: (chain: string) => boolean): WalletCheck {
  const account = parseAccountId(chainId);
  if (!account) return { ok: false, message: 'must be a CAIP-10 account id such as eip155:11155111:0xAb16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb' };
  if (account.namespace !== 'eip155')
    return { ok: false, message: `only eip155 (EVM) chains are supported, not ${account.namespace}; GET /v1/chains lists them` };
  if (!isSupportedChain(account.chain))
    return { ok: false, message: `chain ${account.chain} is not supported here; GET /v1/chains lists the supported chains` };
  return { ok: true, chain: account.chain, address: account.address };
}
