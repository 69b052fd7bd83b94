import { describe, expect, it } from 'vitest';
import {
  AUTHORISATION_ACTIONS,
  AUTHORISATION_STATUSES,
  authorisationRefusal,
  authorisationTransition,
  capturedAmounts,
  amountUpdateProblems,
  amountUpdateRefusal,
  captureProblems,
  DEFAULT_MERCHANT,
  holdExpiresAt,
  holdExpiryProblem,
  manualRefusal,
  merchantFrom,
  type AuthorisationAction,
  type AuthorisationStatus,
} from './authorisation.js';

/** Every allowed move; any pair not listed must be refused. */
const ALLOWED: Record<string, AuthorisationStatus> = {
  'pending capture': 'capturing',
  'pending release': 'releasing',
  'capturing complete': 'captured',
  'releasing complete': 'released',
};

const REFUSAL: Record<AuthorisationAction, string> = {
  capture: 'authorisation_not_pending',
  release: 'authorisation_not_pending',
  complete: 'invalid_state_transition',
};

describe('the authorisation state table', () => {
  for (const status of AUTHORISATION_STATUSES) {
    for (const action of AUTHORISATION_ACTIONS) {
      const next = ALLOWED[`${status} ${action}`];
      it(`${status} × ${action} → ${next ?? REFUSAL[action]}`, () => {
        const outcome = authorisationTransition(status, action);
        if (next) expect(outcome).toEqual({ ok: true, next });
        else expect(outcome).toMatchObject({ ok: false, code: REFUSAL[action], detail: expect.stringContaining(status) });
      });
    }
  }
});

describe('manualRefusal', () => {
  const id = '6f1d1c9e-1111-4111-8111-111111111111';

  it('lets the simulator capture or release a pending authorisation created with capture: false', () => {
    expect(manualRefusal({ id, status: 'pending', capture: false }, 'capture')).toBeUndefined();
    expect(manualRefusal({ id, status: 'pending', capture: false }, 'release')).toBeUndefined();
  });

  it('refuses one that is captured automatically, saying why', () => {
    expect(manualRefusal({ id, status: 'pending', capture: true }, 'release')).toMatch(/created with capture: true/);
  });

  for (const status of AUTHORISATION_STATUSES.filter((s) => s !== 'pending')) {
    it(`refuses one that is ${status}, naming the status`, () => {
      expect(manualRefusal({ id, status, capture: false }, 'capture')).toBe(`authorisation ${id} is ${status}; only a pending authorisation can be captured`);
    });
  }
});

describe('merchantFrom', () => {
  it('is the default test merchant when nothing is given', () => {
    expect(merchantFrom()).toEqual({ id: 'TEST', name: 'Test Merchant', mcc: 9999, country: 'GB', city: 'London' });
    expect(merchantFrom()).toEqual(DEFAULT_MERCHANT);
  });

  it('replaces only the given fields and keeps the reference field order', () => {
    const merchant = merchantFrom({ city: 'Paris', mcc: 5812, country: 'FR' });
    expect(merchant).toEqual({ id: 'TEST', name: 'Test Merchant', mcc: 5812, country: 'FR', city: 'Paris' });
    expect(Object.keys(merchant)).toEqual(['id', 'name', 'mcc', 'country', 'city']);
  });
});

const CURRENCIES = { EUR: 2, USD: 2, JPY: 0 };

describe('authorisationRefusal', () => {
  const parents = (customer: string, account: string) => [
    { kind: 'customer' as const, id: 'cu', status: customer },
    { kind: 'account' as const, id: 'ac', status: account },
  ];

  it('lets an active card of an active account and customer pay', () => {
    expect(authorisationRefusal({ id: 'ca', status: 'active' }, parents('active', 'active'))).toBeUndefined();
  });

  it('names the customer, then the account, then the card that is not active', () => {
    expect(authorisationRefusal({ id: 'ca', status: 'inactive' }, parents('inactive', 'inactive'))).toEqual({
      code: 'customer_not_active',
      detail: 'customer cu is inactive; a card payment needs an active customer',
    });
    expect(authorisationRefusal({ id: 'ca', status: 'active' }, parents('active', 'closed'))?.code).toBe('account_not_active');
    expect(authorisationRefusal({ id: 'ca', status: 'blocked' }, parents('active', 'active'))).toEqual({
      code: 'card_not_active',
      detail: 'card ca is blocked; only an active card can be authorised',
    });
  });
});

describe('captureProblems', () => {
  const auth = { amount: '11.5', currency: 'EUR', merchant: { mcc: 5411 } };

  it('takes an amount of the authorisation currency up to what was authorised', () => {
    expect(captureProblems('5', auth, CURRENCIES)).toEqual([]);
    expect(captureProblems('11.50', auth, CURRENCIES)).toEqual([]);
  });

  it('refuses more than authorised, zero, a negative and too many digits', () => {
    expect(captureProblems('11.51', auth, CURRENCIES)[0]?.message).toMatch(/at most the authorised 11.5 EUR/);
    expect(captureProblems('0', auth, CURRENCIES)[0]?.message).toBe('must be greater than 0');
    expect(captureProblems('-1', auth, CURRENCIES)[0]?.path).toBe('amount');
    expect(captureProblems('1.001', auth, CURRENCIES)[0]?.message).toMatch(/at most 2 fraction digits/);
  });

  it('takes up to 20 % more, rounded down, where the merchant category allows a tip', () => {
    const restaurant = { ...auth, merchant: { mcc: 5812 } };
    expect(captureProblems('13.8', restaurant, CURRENCIES)).toEqual([]);
    expect(captureProblems('13.81', restaurant, CURRENCIES)[0]?.message).toMatch(/at most 13.8 EUR: the authorised 11.5 and the 20 % tip/);
  });
});

describe('captureProblems with captures before it', () => {
  const auth = { amount: '50', currency: 'EUR', merchant: { mcc: 5411 } };

  it('takes a part less than what is still held when it is not final, and the rest at most when it is', () => {
    expect(captureProblems('29.99', auth, CURRENCIES, { captured: '20', final: false })).toEqual([]);
    expect(captureProblems('30', auth, CURRENCIES, { captured: '20', final: false })[0]?.message).toBe(
      'must be less than the 30 EUR still held when final is false; the final capture takes the rest',
    );
    expect(captureProblems('30', auth, CURRENCIES, { captured: '20' })).toEqual([]);
    expect(captureProblems('30.01', auth, CURRENCIES, { captured: '20' })[0]?.message).toMatch(
      /^must be at most 30 EUR: the authorised 50, less the 20 captured before; merchant category 5411 takes no tip/,
    );
  });

  it('counts the tip on the total', () => {
    const bar = { ...auth, merchant: { mcc: 5813 } };
    expect(captureProblems('40', bar, CURRENCIES, { captured: '20' })).toEqual([]);
    expect(captureProblems('40.01', bar, CURRENCIES, { captured: '20' })[0]?.message).toBe(
      'must be at most 40 EUR: the authorised 50 and the 20 % tip merchant category 5813 allows, less the 20 captured before',
    );
  });
});

describe('amount updates', () => {
  it('take an amount of the currency more than the captures took, on a pending authorisation only', () => {
    expect(amountUpdateProblems('20.01', { currency: 'EUR' }, CURRENCIES, '20')).toEqual([]);
    expect(amountUpdateProblems('20', { currency: 'EUR' }, CURRENCIES, '20')).toEqual([
      { path: 'amount', message: 'must be more than the 20 EUR its captures took already' },
    ]);
    expect(amountUpdateProblems('1.001', { currency: 'EUR' }, CURRENCIES, '0')[0]?.message).toMatch(/at most 2 fraction digits/);
    expect(amountUpdateRefusal({ id: 'a', status: 'pending' })).toBeUndefined();
    expect(amountUpdateRefusal({ id: 'a', status: 'released' })).toBe(
      'cannot update the amount of authorisation a, which is released: only a pending authorisation takes updates',
    );
  });
});

describe('capturedAmounts', () => {
  const auth = { amount: '11.5', currency: 'EUR', merchantAmount: '12.5', merchantCurrency: 'USD', exchangeRate: '0.92', capturedAmount: null };

  it('is the whole authorisation without a partial capture, or with the whole amount', () => {
    expect(capturedAmounts(auth, CURRENCIES)).toEqual({ amount: '11.5', merchantAmount: '12.5', exchangeRate: '0.92' });
    expect(capturedAmounts({ ...auth, capturedAmount: '11.5' }, CURRENCIES)).toEqual({ amount: '11.5', merchantAmount: '12.5', exchangeRate: '0.92' });
  });

  it("is the part captured, with the merchant's share rounded half-even to its minor unit", () => {
    // 5 / 0.92 = 5.4347…
    expect(capturedAmounts({ ...auth, capturedAmount: '5' }, CURRENCIES)).toEqual({ amount: '5', merchantAmount: '5.43', exchangeRate: '0.92' });
    expect(capturedAmounts({ ...auth, merchantCurrency: 'JPY', exchangeRate: '0.0061', capturedAmount: '1' }, CURRENCIES)).toEqual({
      amount: '1',
      merchantAmount: '164',
      exchangeRate: '0.0061',
    });
  });

  it("converts at the rate of the capture's own time when the rate has moved since the hold", () => {
    // The merchant's 12.5 USD at 0.95: 11.875 → 11.88 EUR, rounded half-even.
    expect(capturedAmounts(auth, CURRENCIES, '0.95')).toEqual({ amount: '11.88', merchantAmount: '12.5', exchangeRate: '0.95' });
    // A part keeps the amount asked; the merchant's share follows the new rate: 5 / 0.95 = 5.263…
    expect(capturedAmounts({ ...auth, capturedAmount: '5' }, CURRENCIES, '0.95')).toEqual({ amount: '5', merchantAmount: '5.26', exchangeRate: '0.95' });
  });
});

describe('hold expiry', () => {
  it('takes a duration from 1 s to 3650 days', () => {
    expect(holdExpiryProblem(1_000)).toBeUndefined();
    expect(holdExpiryProblem(undefined)).toMatch(/must be a duration/);
    expect(holdExpiryProblem(999)).toBe('must be at least 1s');
    expect(holdExpiryProblem(3_651 * 86_400_000)).toBe('must be at most 3650d');
  });

  it('falls due the expiry after the hold was made, never in the past', () => {
    expect(holdExpiresAt(1_000, 500, 1_200)).toBe(1_500);
    expect(holdExpiresAt(1_000, 500, 9_000)).toBe(9_000);
  });
});
