/**
 * The authorisation's life cycle (docs/api.md: Authorisations and transactions): created `pending`, then captured
 * (`capturing → captured`) or released (`releasing → released`). Also who may move it by hand,
 * the default test merchant and the delays the sandbox automates.
 */
import { transition, type Machine } from './state-machine.js';

export const AUTHORISATION_STATUSES = ['pending', 'capturing', 'captured', 'releasing', 'released'] as const;
export type AuthorisationStatus = (typeof AUTHORISATION_STATUSES)[number];

export const AUTHORISATION_ACTIONS = ['capture', 'release', 'complete'] as const;
export type AuthorisationAction = (typeof AUTHORISATION_ACTIONS)[number];

export const AUTHORISATION_MACHINE: Machine<AuthorisationStatus, AuthorisationAction> = {
  entity: 'authorisation',
  states: AUTHORISATION_STATUSES,
  actions: {
    capture: { from: { pending: 'capturing' }, refuse: 'authorisation_not_pending' },
    release: { from: { pending: 'releasing' }, refuse: 'authorisation_not_pending' },
    /** The second half of either move; the sandbox performs it, never the integrator. */
    complete: { from: { capturing: 'captured', releasing: 'released' }, refuse: 'invalid_state_transition' },
  },
};

export const authorisationTransition = (status: AuthorisationStatus, action: AuthorisationAction) => transition(AUTHORISATION_MACHINE, status, action);

/** With `capture` (the default) the sandbox captures the authorisation this long after it was created. */
export const AUTO_CAPTURE_DELAY_MS = 1_000;
/** A simulator capture or release enters `capturing`/`releasing` at once and completes this long after. */
export const MANUAL_COMPLETION_DELAY_MS = 1_000;
/** Pending holds on a terminated card stay capturable this long; then they are released. */
export const TERMINATED_HOLD_WINDOW_MS = 30 * 24 * 60 * 60 * 1_000;

/** Where a payment was made; its wire shape is in wire/payment.ts. */
export interface Merchant {
  id: string;
  name: string;
  mcc: number;
  country: string;
  city: string;
}

export const DEFAULT_MERCHANT: Readonly<Merchant> = { id: 'TEST', name: 'Test Merchant', mcc: 9999, country: 'GB', city: 'London' };

/** The default merchant with the fields the request gave replaced, in the wire's field order. */
export function merchantFrom(override: Partial<Merchant> = {}): Merchant {
  const d = DEFAULT_MERCHANT;
  return {
    id: override.id ?? d.id,
    name: override.name ?? d.name,
    mcc: override.mcc ?? d.mcc,
    country: override.country ?? d.country,
    city: override.city ?? d.city,
  };
}

/**
 * Why the simulator may not capture or release this authorisation by hand, or undefined when it
 * may: only a `pending` one created with `capture: false` qualifies.
 */
export function manualRefusal(auth: { id: string; status: AuthorisationStatus; capture: boolean }, action: 'capture' | 'release'): string | undefined {
  const done = action === 'capture' ? 'captured' : 'released';
  if (auth.status !== 'pending') return `authorisation ${auth.id} is ${auth.status}; only a pending authorisation can be ${done}`;
  if (auth.capture)
    return `authorisation ${auth.id} was created with capture: true and is captured automatically; only one created with capture: false can be ${done} by the simulator`;
  return undefined;
}
