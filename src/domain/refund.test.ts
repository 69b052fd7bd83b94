import { describe, expect, it } from 'vitest';
import { refundExcess } from './refund-amount.js';
import { refundOriginalRefusal, refundTargetRefusal } from './refund.js';

const card = (status: Parameters<typeof refundTargetRefusal>[0]['status']) => ({ id: 'c', status });
const account = (status: Parameters<typeof refundTargetRefusal>[1]['status']) => ({ id: 'a', status });

describe('refundTargetRefusal', () => {
  it('takes a card that was issued, whatever became of it, on an open account', () => {
    for (const status of ['active', 'inactive', 'blocked', 'suspended', 'terminated'] as const) {
      expect(refundTargetRefusal(card(status), account('active')), status).toBeUndefined();
    }
    expect(refundTargetRefusal(card('active'), account('inactive'))).toBeUndefined();
  });

  it('refuses a card never issued and a closed account, naming the states it needs', () => {
    expect(refundTargetRefusal(card('issuing'), account('active'))).toEqual({
      code: 'invalid_state_transition',
      detail: 'card c is issuing; a refund needs a card that was issued: active, inactive, blocked, suspended or terminated',
    });
    expect(refundTargetRefusal(card('issue_failed'), account('active'))?.code).toBe('invalid_state_transition');
    expect(refundTargetRefusal(card('terminated'), account('closed'))?.detail).toBe(
      'account a is closed; a refund needs an account that is active or inactive',
    );
  });
});

describe('refundOriginalRefusal', () => {
  const debit = { id: 't', cardId: 'c', direction: 'debit', status: 'processed' as const };

  it('follows a settled debit of the same card', () => {
    expect(refundOriginalRefusal(debit, 'c')).toBeUndefined();
  });

  it('refuses another card, a credit, and a debit not settled or reversed', () => {
    expect(refundOriginalRefusal(debit, 'other')?.errors).toEqual([{ path: 'transactionId', message: 'transaction t is not a payment of card other' }]);
    expect(refundOriginalRefusal({ ...debit, direction: 'credit' }, 'c')?.errors?.[0]?.message).toBe('transaction t is a credit; a refund follows a debit');
    expect(refundOriginalRefusal({ ...debit, status: 'processing' }, 'c')).toEqual({
      code: 'invalid_state_transition',
      detail: 'transaction t is processing; a refund follows a debit that is processed (it settles 1 s after its capture)',
    });
    expect(refundOriginalRefusal({ ...debit, status: 'reversed' }, 'c')?.code).toBe('invalid_state_transition');
  });
});

describe('refundExcess', () => {
  const original = { id: 't', amount: '10', currency: 'EUR' };

  it('gives back up to what the debit took, in parts', () => {
    expect(refundExcess(original, [], '10')).toBeUndefined();
    expect(refundExcess(original, ['4', '2.5'], '3.5')).toBeUndefined();
  });

  it('refuses more, counting the refunds before it', () => {
    expect(refundExcess(original, ['4'], '6.01')).toEqual({
      path: 'amount',
      message: 'refunds of transaction t would come to 10.01 EUR with the 4 EUR refunded before, more than the 10 EUR it took',
    });
    expect(refundExcess(original, [], '10.5')?.message).toBe('refunds of transaction t would come to 10.5 EUR, more than the 10 EUR it took');
  });
});
