/**
 * The authorisation's life cycle (docs/api.md: Authorisations and transactions): created `pending`, then captured
 * (`capturing → captured`) or released (`releasing → released`). Also who may be authorised, who
 * may move it by hand and for how much (docs/money-path.md: Partial captures), the default test
 * merchant, and the delays the sandbox automates: captures, completions and holds that expire.
 */
import { inactiveParent, type Parent } from './cascade.js';
import type { ErrorCode, FieldError } from './errors.js';
import { captureCeiling, TIP_ALLOWANCE_PERCENT } from './merchant-categories.js';
import { amountProblems, compare, convertAt, minus, sum, unconvert, type MoneyTables } from './money.js';
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
const DAY_MS = 24 * 60 * 60 * 1_000;
/** Pending holds on a terminated, blocked or suspended card stay capturable this long from when it stopped; then they are released. */
export const TERMINATED_HOLD_WINDOW_MS = 30 * DAY_MS;
/** A hold left pending on a card that takes payments is released this long after it was made (docs/money-path.md: Holds that expire). */
export const DEFAULT_HOLD_EXPIRY_MS = 7 * DAY_MS;
const MIN_HOLD_EXPIRY_MS = 1_000;
const MAX_HOLD_EXPIRY_MS = 3_650 * DAY_MS;

/** Why `ms` cannot be a hold expiry, or undefined when it can. */
export function holdExpiryProblem(ms: number | undefined): string | undefined {
  if (ms === undefined) return 'must be a duration such as "7d", "36h" or "P30D"';
  if (ms < MIN_HOLD_EXPIRY_MS) return 'must be at least 1s';
  if (ms > MAX_HOLD_EXPIRY_MS) return 'must be at most 3650d';
  return undefined;
}

/** When a hold made at `createdAt` expires on a card that takes payments: never before `now` (a card reinstated late releases it at once). */
export const holdExpiresAt = (createdAt: number, holdExpiryMs: number, now: number): number => Math.max(now, createdAt + holdExpiryMs);

/**
 * Why a card payment is refused, or undefined when it may be made: every parent active (the
 * customer first, then the account), then the card.
 */
export function authorisationRefusal(card: { id: string; status: string }, parents: readonly Parent[]): { code: ErrorCode; detail: string } | undefined {
  const parent = inactiveParent(parents, (p) => `a card payment needs an active ${p.kind}`);
  if (parent) return parent;
  if (card.status !== 'active') return { code: 'card_not_active', detail: `card ${card.id} is ${card.status}; only an active card can be authorised` };
  return undefined;
}

/**
 * What is wrong with `amount` as what to capture of an authorisation of which `captured` was taken
 * before (docs/money-path.md: Several captures of one hold): an amount of its currency, more than 0.
 * A capture that is not `final` takes less than what is still held; the final one brings the total
 * to at most what was authorised — or, where the schemes allow a tip, up to 20 % more
 * (docs/money-path.md: Merchant categories). Empty when nothing is.
 */
export function captureProblems(
  amount: string,
  auth: { amount: string; currency: string; merchant: { mcc: number } },
  currencies: MoneyTables['currencies'],
  { captured = '0', final = true }: { captured?: string; final?: boolean } = {},
): FieldError[] {
  const problems = amountProblems(amount, auth.currency, currencies);
  if (problems.length) return problems;
  const held = minus(auth.amount, captured);
  const before = compare(captured, '0') > 0 ? `, less the ${captured} captured before` : '';
  if (!final) {
    if (compare(amount, held) < 0) return [];
    return [{ path: 'amount', message: `must be less than the ${held} ${auth.currency} still held when final is false; the final capture takes the rest` }];
  }
  const ceiling = captureCeiling(auth.amount, auth.merchant.mcc, currencies[auth.currency] ?? 2);
  if (compare(sum([captured, amount]), ceiling) <= 0) return [];
  const tip = ceiling !== auth.amount;
  const what = tip
    ? `the authorised ${auth.amount} and the ${TIP_ALLOWANCE_PERCENT} % tip merchant category ${auth.merchant.mcc} allows`
    : `the authorised ${auth.amount}`;
  const most =
    before || tip
      ? `must be at most ${minus(ceiling, captured)} ${auth.currency}: ${what}${before}`
      : `must be at most the authorised ${auth.amount} ${auth.currency}`;
  const rest = tip ? '' : `; merchant category ${auth.merchant.mcc} takes no tip, and the rest of a capture is released, never more taken`;
  return [{ path: 'amount', message: `${most}${rest}` }];
}

/**
 * What is wrong with `amount` as a pending authorisation's new amount (docs/money-path.md: Amount
 * updates): an amount of its currency, more than what its earlier captures took. Empty when nothing is.
 */
export function amountUpdateProblems(amount: string, auth: { currency: string }, currencies: MoneyTables['currencies'], captured: string): FieldError[] {
  const problems = amountProblems(amount, auth.currency, currencies);
  if (problems.length || compare(amount, captured) > 0) return problems;
  return [{ path: 'amount', message: `must be more than the ${captured} ${auth.currency} its captures took already` }];
}

/** Why a pending authorisation's amount cannot be updated, or undefined when it can. */
export function amountUpdateRefusal(auth: { id: string; status: AuthorisationStatus }): string | undefined {
  if (auth.status === 'pending') return undefined;
  return `cannot update the amount of authorisation ${auth.id}, which is ${auth.status}: only a pending authorisation takes updates`;
}

/**
 * The amounts of the transaction a capture leaves, converted at `rate`, the rate of the capture's
 * own time (docs/money-path.md: Moving rates): the whole authorisation — the merchant's amount,
 * in the account's currency at that rate — or the part captured with the merchant's share of it
 * (the captured amount divided by the rate, rounded half-even to the merchant currency's minor unit).
 */
export function capturedAmounts(
  auth: { amount: string; currency: string; merchantAmount: string; merchantCurrency: string; exchangeRate: string; capturedAmount: string | null },
  currencies: MoneyTables['currencies'],
  rate: string = auth.exchangeRate,
): { amount: string; merchantAmount: string; exchangeRate: string } {
  const captured = auth.capturedAmount;
  if (captured === null || compare(captured, auth.amount) === 0) {
    const amount = compare(rate, auth.exchangeRate) === 0 ? auth.amount : convertAt(auth.merchantAmount, rate, currencies[auth.currency] ?? 2);
    return { amount, merchantAmount: auth.merchantAmount, exchangeRate: rate };
  }
  return { amount: captured, merchantAmount: unconvert(captured, rate, currencies[auth.merchantCurrency] ?? 2), exchangeRate: rate };
}

/** Where a payment was made; its wire shape is in wire/payment.ts. */
export interface Merchant {
  id: string;
  name: string;
  mcc: number;
  country: string;
  city: string;
}

export const DEFAULT_MERCHANT: Readonly<Merchant> = { id: 'TEST', name: 'Test Merchant', mcc: 9999, country: 'GB', city: 'London' };

/** `base` (the default merchant) with the fields the request gave replaced, in the wire's field order. */
export function merchantFrom(override: Partial<Merchant> = {}, base: Readonly<Merchant> = DEFAULT_MERCHANT): Merchant {
  const d = base;
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
