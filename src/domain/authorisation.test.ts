import { describe, expect, it } from 'vitest';
import {
  AUTHORISATION_ACTIONS,
  AUTHORISATION_STATUSES,
  authorisationTransition,
  DEFAULT_MERCHANT,
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
