/**
 * How much of a debit refunds may give back (docs/money-path.md: Refunds): all of it, in as many
 * parts as the merchant likes, never more — counted exactly, in the account's currency.
 */
import type { FieldError } from './errors.js';
import { compare, sum } from './money.js';

/**
 * Why a refund of `amount` would give back more than the debit took, counting the refunds before
 * it; undefined when it would not. A hold captured several times (docs/money-path.md: Several
 * captures of one hold) links its refunds to its authorisation, not to one debit: they are counted
 * against all its `debits` together.
 */
export function refundExcess(
  original: { id: string; amount: string; currency: string; authorisationId?: string | null },
  earlier: readonly string[],
  amount: string,
  debits: readonly string[] = [original.amount],
): FieldError | undefined {
  const total = sum([...earlier, amount]);
  const took = sum(debits);
  if (compare(total, took) <= 0) return undefined;
  const before = earlier.length ? ` with the ${sum(earlier)} ${original.currency} refunded before` : '';
  const what = debits.length > 1 ? `the ${debits.length} debits of authorisation ${original.authorisationId}` : `transaction ${original.id}`;
  const it = debits.length > 1 ? 'they' : 'it';
  return {
    path: 'amount',
    message: `refunds of ${what} would come to ${total} ${original.currency}${before}, more than the ${took} ${original.currency} ${it} took`,
  };
}
