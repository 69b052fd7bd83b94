/**
 * The card's life cycle (docs/api.md: Customers, accounts and cards): created `issuing`, the simulator issues or fails it,
 * the integrator toggles active ⇄ inactive and terminates it; closing its account or passing its
 * expiry month retires it; the issuer blocks, suspends and reinstates it (docs/money-path.md: Cards
 * the issuer stops), `blocked` for good as the service's Card States page has it. Also the per-account card limit, and which states stop a card's payments.
 */
import { transition, type Machine } from './state-machine.js';

export const CARD_STATUSES = ['issuing', 'issue_failed', 'active', 'inactive', 'blocked', 'suspended', 'terminated'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

export const CARD_ACTIONS = ['issue', 'fail', 'deactivate', 'activate', 'terminate', 'retire', 'block', 'suspend', 'reinstate'] as const;
export type CardAction = (typeof CARD_ACTIONS)[number];

export const CARD_TYPES = ['virtual', 'physical'] as const;
export type CardType = (typeof CARD_TYPES)[number];

export const CARD_MACHINE: Machine<CardStatus, CardAction> = {
  entity: 'card',
  states: CARD_STATUSES,
  actions: {
    issue: { from: { issuing: 'active' }, refuse: 'card_not_issuing' },
    fail: { from: { issuing: 'issue_failed' }, refuse: 'card_not_issuing' },
    deactivate: { from: { active: 'inactive' }, refuse: 'invalid_state_transition' },
    activate: { from: { inactive: 'active' }, refuse: 'invalid_state_transition' },
    /** The integrator's DELETE. */
    terminate: { from: { active: 'terminated', inactive: 'terminated', suspended: 'terminated' }, refuse: 'invalid_state_transition' },
    /** The account closed or the card expired: every card still alive ends. */
    retire: {
      from: { issuing: 'terminated', active: 'terminated', inactive: 'terminated', blocked: 'terminated', suspended: 'terminated' },
      refuse: 'invalid_state_transition',
    },
    /** The issuer stops the card for good (fraud confirmed): a suspended card may be blocked too; `blocked` is final. */
    block: { from: { active: 'blocked', suspended: 'blocked' }, refuse: 'invalid_state_transition' },
    /** The issuer stops the card for a while. */
    suspend: { from: { active: 'suspended' }, refuse: 'invalid_state_transition' },
    /** The issuer's suspicion was not confirmed: a suspended card takes payments again (a blocked one never does). */
    reinstate: { from: { suspended: 'active' }, refuse: 'invalid_state_transition' },
  },
};

export const cardTransition = (status: CardStatus, action: CardAction) => transition(CARD_MACHINE, status, action);

/**
 * A card in these states takes no payment, and its pending holds stay capturable for
 * TERMINATED_HOLD_WINDOW_MS from when it stopped, then are released (docs/money-path.md: Cards the issuer stops).
 */
export const STOPPED: readonly CardStatus[] = ['blocked', 'suspended', 'terminated'];

/** Whether a move from `from` to `to` stops the card's payments, resumes them, or neither. */
export function paymentsChange(from: CardStatus, to: CardStatus): 'stopped' | 'resumed' | undefined {
  const was = STOPPED.includes(from);
  const is = STOPPED.includes(to);
  return was === is ? undefined : is ? 'stopped' : 'resumed';
}

/** Cards in these states no longer count against the one-virtual-one-physical limit. */
const ENDED: readonly CardStatus[] = ['issue_failed', 'terminated'];

/** Whether an account whose cards are `existing` may get another card of `type`. */
export function withinCardLimit(existing: readonly { type: string; status: string }[], type: CardType): boolean {
  return !existing.some((card) => card.type === type && !ENDED.includes(card.status as CardStatus));
}
