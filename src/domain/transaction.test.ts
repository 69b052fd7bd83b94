import { describe, expect, it } from 'vitest';
import { chainTransactionId, TRANSACTION_ACTIONS, TRANSACTION_STATUSES, transactionTransition } from './transaction.js';

describe('the transaction state table', () => {
  for (const status of TRANSACTION_STATUSES) {
    for (const action of TRANSACTION_ACTIONS) {
      const allowed = status === 'processing' && action === 'settle';
      it(`${status} × ${action} → ${allowed ? 'processed' : 'refused'}`, () => {
        const outcome = transactionTransition(status, action);
        if (allowed) expect(outcome).toEqual({ ok: true, next: 'processed' });
        else expect(outcome).toMatchObject({ ok: false, code: 'invalid_state_transition' });
      });
    }
  }
});

describe('chainTransactionId', () => {
  it('is the CAIP-2 chain, a colon and the 32-byte hash in 0x-prefixed hex', () => {
    const hash = new Uint8Array(32).fill(0xab);
    expect(chainTransactionId('eip155:11155111', hash)).toBe(`eip155:11155111:0x${'ab'.repeat(32)}`);
  });
});
