import { describe, expect, it } from 'vitest';
import {
  chainTransactionId,
  reversalRefusal,
  TRANSACTION_ACTIONS,
  TRANSACTION_STATUSES,
  transactionTransition,
  type TransactionAction,
  type TransactionStatus,
} from './transaction.js';

const T = 'refused';
// Every state × every action: the next state, or refused (always invalid_state_transition).
const EXPECTED: Record<TransactionStatus, Record<TransactionAction, string>> = {
  processing: { settle: 'processed', reverse: T, complete: T },
  processed: { settle: T, reverse: 'reversing', complete: T },
  reversing: { settle: T, reverse: T, complete: 'reversed' },
  reversed: { settle: T, reverse: T, complete: T },
};

describe('the transaction state table', () => {
  for (const status of TRANSACTION_STATUSES) {
    for (const action of TRANSACTION_ACTIONS) {
      it(`${status} × ${action} → ${EXPECTED[status][action]}`, () => {
        const outcome = transactionTransition(status, action);
        if (outcome.ok) expect(outcome.next).toBe(EXPECTED[status][action]);
        else expect([T, outcome.code]).toEqual([EXPECTED[status][action], 'invalid_state_transition']);
      });
    }
  }

  it('names the states a reversal needs', () => {
    expect(transactionTransition('reversed', 'reverse')).toMatchObject({
      detail: 'cannot reverse a transaction that is reversed: only a transaction that is processed can become reversing',
    });
  });
});

describe('reversalRefusal', () => {
  it('takes back a debit no refund followed', () => {
    expect(reversalRefusal({ id: 't', direction: 'debit' }, 0)).toBeUndefined();
  });

  it('refuses a credit, and a debit a refund followed', () => {
    expect(reversalRefusal({ id: 't', direction: 'credit' }, 0)).toBe('transaction t is a credit; only a debit can be reversed');
    expect(reversalRefusal({ id: 't', direction: 'debit' }, 2)).toMatch(/has been refunded \(2 refunds\)/);
  });
});

describe('chainTransactionId', () => {
  it('is the CAIP-2 chain, a colon and the 32-byte hash in 0x-prefixed hex', () => {
    const hash = new Uint8Array(32).fill(0xab);
    expect(chainTransactionId('eip155:11155111', hash)).toBe(`eip155:11155111:0x${'ab'.repeat(32)}`);
  });
});
