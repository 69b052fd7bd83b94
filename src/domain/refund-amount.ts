/**
 * How much of a debit refunds may give back (docs/money-path.md: Refunds): all of it, in as many
 * parts as the merchant likes, never more — counted exactly, in the account's currency.
 */
import type { FieldError } from './errors.js';
import { compare, sum } from './money.js';

/** Why a refund of `amount` would give back more than the debit took, counting the refunds before it; undefined when it would not. */
export function refundExcess(original: { id: string; amount: string; currency: string }, earlier: readonly string[], amount: string): FieldError | undefined {
  const total = sum([...earlier, amount]);
  if (compare(total, original.amount) <= 0) return undefined;
  const before = earlier.length ? ` with the ${sum(earlier)} ${original.currency} refunded before` : '';
  return {
    path: 'amount',
    message: `refunds of transaction ${original.id} would come to ${total} ${original.currency}${before}, more than the ${original.amount} ${original.currency} it took`,
  };
}
