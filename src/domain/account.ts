/**
 * The account's life cycle (docs/api.md: Customers, accounts and cards): the customer's signature approves deployment
 * (initiating → pending), deployment finishes it (→ active) or the sandbox fails it (→ failed,
 * docs/money-path.md: Accounts that fail), the integrator toggles active ⇄ inactive and closes it.
 * The address it deploys to: smart-account.ts.
 */
import { transition, type Machine } from './state-machine.js';

export const ACCOUNT_STATUSES = ['initiating', 'pending', 'active', 'inactive', 'closed', 'failed'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export const ACCOUNT_ACTIONS = ['sign', 'deploy', 'deactivate', 'activate', 'close', 'fail'] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

export const ACCOUNT_TYPES = ['card_account'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
/** The currencies an account may hold, each only on chains that carry an asset for it. */
export const ACCOUNT_CURRENCIES = ['EUR', 'USD', 'GBP'] as const;
export type AccountCurrency = (typeof ACCOUNT_CURRENCIES)[number];

/** Deployment takes this long in sandbox time after the challenge is signed. */
export const DEPLOYMENT_MS = 2_000;

export const ACCOUNT_MACHINE: Machine<AccountStatus, AccountAction> = {
  entity: 'account',
  states: ACCOUNT_STATUSES,
  actions: {
    // Every state after initiating was reached through a signed challenge.
    sign: { from: { initiating: 'pending' }, refuse: 'challenge_already_signed' },
    deploy: { from: { pending: 'active' }, refuse: 'invalid_state_transition' },
    deactivate: { from: { active: 'inactive' }, refuse: 'invalid_state_transition' },
    activate: { from: { inactive: 'active' }, refuse: 'invalid_state_transition' },
    close: { from: { active: 'closed', inactive: 'closed' }, refuse: 'invalid_state_transition' },
    /** Deployment never finishes: only an account not yet deployed can fail. */
    fail: { from: { initiating: 'failed', pending: 'failed' }, refuse: 'invalid_state_transition' },
  },
};

export const accountTransition = (status: AccountStatus, action: AccountAction) => transition(ACCOUNT_MACHINE, status, action);
