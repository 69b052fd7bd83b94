/**
 * The transaction's life cycle (docs/api.md: Authorisations and transactions): a captured authorisation becomes a
 * debit that is `processing`, then settles to `processed`; a refund is a credit that does the same.
 * A settled debit may be reversed (docs/money-path.md: Reversals): `reversing`, then `reversed`. It
 * imports no library, so the inspector bundles its state table for a few bytes.
 */
import { transition, type Machine } from './state-machine.js';

export const TRANSACTION_STATUSES = ['processing', 'processed', 'reversing', 'reversed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const TRANSACTION_DIRECTIONS = ['debit', 'credit'] as const;

export const TRANSACTION_ACTIONS = ['settle', 'reverse', 'complete'] as const;
export type TransactionAction = (typeof TRANSACTION_ACTIONS)[number];

export const TRANSACTION_MACHINE: Machine<TransactionStatus, TransactionAction> = {
  entity: 'transaction',
  states: TRANSACTION_STATUSES,
  actions: {
    settle: { from: { processing: 'processed' }, refuse: 'invalid_state_transition' },
    /** Only a settled debit is taken back, as the service's Transaction States page has it (the direction is checked by `reversalRefusal`). */
    reverse: { from: { processed: 'reversing' }, refuse: 'invalid_state_transition' },
    /** The second half of a reversal; the sandbox performs it, never the integrator. */
    complete: { from: { reversing: 'reversed' }, refuse: 'invalid_state_transition' },
  },
};

export const transactionTransition = (status: TransactionStatus, action: TransactionAction) => transition(TRANSACTION_MACHINE, status, action);

export const FEE_TYPES = ['partner', 'service', 'network'] as const;
export type FeeType = (typeof FEE_TYPES)[number];

/** A fee on a transaction (docs/money-path.md: Fees); its wire shape is in wire/payment.ts. */
export interface Fee {
  type: FeeType;
  tokenAmount: string;
}

/** An on-chain transfer behind a transaction. */
export interface ChainTransaction {
  chainId: string;
  createdAt: string;
}

/** A new transaction settles this long after the capture (or refund) that created it. */
export const SETTLEMENT_DELAY_MS = 1_000;
/** A reversal enters `reversing` at once and completes this long after. */
export const REVERSAL_DELAY_MS = 1_000;

/**
 * Why this transaction may not be reversed beyond its state, or undefined when it may: only a
 * debit, and one no refund has followed (its money would come back twice).
 */
export function reversalRefusal(tx: { id: string; direction: string }, refunds: number): string | undefined {
  if (tx.direction !== 'debit') return `transaction ${tx.id} is a ${tx.direction}; only a debit can be reversed`;
  if (refunds > 0)
    return `transaction ${tx.id} has been refunded (${refunds} refund${refunds === 1 ? '' : 's'}); a debit that a refund followed cannot be reversed as well`;
  return undefined;
}

/** The id of the on-chain transfer behind a transaction: `<CAIP-2 chain>:0x<32 bytes hex>`. */
export function chainTransactionId(chain: string, hash: Uint8Array): string {
  return `${chain}:0x${Buffer.from(hash).toString('hex')}`;
}
