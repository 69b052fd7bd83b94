/**
 * The transaction's life cycle (docs/api.md: Authorisations and transactions): a captured authorisation becomes a
 * debit that is `processing`, then settles to `processed`. The reference also names `reversing`
 * and `reversed`; nothing in the sandbox reverses a transaction, so no move leads there.
 */
import { transition, type Machine } from './state-machine.js';

export const TRANSACTION_STATUSES = ['processing', 'processed', 'reversing', 'reversed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const TRANSACTION_DIRECTIONS = ['debit', 'credit'] as const;

export const TRANSACTION_ACTIONS = ['settle'] as const;
export type TransactionAction = (typeof TRANSACTION_ACTIONS)[number];

export const TRANSACTION_MACHINE: Machine<TransactionStatus, TransactionAction> = {
  entity: 'transaction',
  states: TRANSACTION_STATUSES,
  actions: {
    settle: { from: { processing: 'processed' }, refuse: 'invalid_state_transition' },
  },
};

export const transactionTransition = (status: TransactionStatus, action: TransactionAction) => transition(TRANSACTION_MACHINE, status, action);

export const FEE_TYPES = ['partner', 'service', 'network'] as const;

/** A fee on a transaction (the sandbox charges none: `fees` is `[]`); its wire shape is in wire/payment.ts. */
export interface Fee {
  type: (typeof FEE_TYPES)[number];
  tokenAmount: string;
}

/** An on-chain transfer behind a transaction. */
export interface ChainTransaction {
  chainId: string;
  createdAt: string;
}

/** A new transaction settles this long after the capture that created it. */
export const SETTLEMENT_DELAY_MS = 1_000;

/** The id of the on-chain transfer behind a transaction: `<CAIP-2 chain>:0x<32 bytes hex>`. */
export function chainTransactionId(chain: string, hash: Uint8Array): string {
  return `${chain}:0x${Buffer.from(hash).toString('hex')}`;
}
