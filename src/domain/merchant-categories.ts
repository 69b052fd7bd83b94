/**
 * What a merchant's category (its MCC) changes on the money path (docs/money-path.md: Merchant
 * categories), as the card schemes' rules and the processors that follow them have it: where a tip
 * may be added at capture, and which holds last longer than others.
 */
import { grownBy } from './money.js';

const DAY_MS = 24 * 60 * 60 * 1_000;

/** Categories where the schemes let a capture exceed the authorisation by a tip. */
export const TIP_CATEGORIES: readonly { mcc: number; what: string }[] = [
  { mcc: 4121, what: 'taxis and limousines' },
  { mcc: 5812, what: 'restaurants' },
  { mcc: 5813, what: 'bars' },
  { mcc: 5814, what: 'fast food' },
  { mcc: 7230, what: 'beauty and barber shops' },
];

/** How much more than authorised a tip category may capture: 20 %. */
export const TIP_ALLOWANCE_PERCENT = 20;

/** Categories whose holds last HOTEL_HOLD_MS: lodging and car rental, the generic codes and the schemes' ranges of named chains. */
export const LONG_HOLD_CATEGORIES: readonly { from: number; to: number; what: string }[] = [
  { from: 3351, to: 3500, what: 'car rental agencies (named chains)' },
  { from: 3501, to: 3999, what: 'hotels and lodging (named chains)' },
  { from: 7011, to: 7011, what: 'hotels, motels and resorts' },
  { from: 7512, to: 7512, what: 'car rental agencies' },
  { from: 7513, to: 7513, what: 'truck and trailer rentals' },
];

/** How long a lodging or car rental hold lasts unless the programme's own hold expiry is longer. */
export const LONG_HOLD_MS = 31 * DAY_MS;

export const takesTips = (mcc: number): boolean => TIP_CATEGORIES.some((c) => c.mcc === mcc);

/** The most a capture of an authorisation of `amount` at category `mcc` may take, to `digits` fraction digits. */
export function captureCeiling(amount: string, mcc: number, digits: number): string {
  return takesTips(mcc) ? grownBy(amount, TIP_ALLOWANCE_PERCENT, digits) : amount;
}

/** How long a hold at category `mcc` waits to be captured, given the programme's hold expiry. */
export function holdExpiryFor(mcc: number, programmeMs: number): number {
  return LONG_HOLD_CATEGORIES.some((c) => mcc >= c.from && mcc <= c.to) ? Math.max(LONG_HOLD_MS, programmeMs) : programmeMs;
}
