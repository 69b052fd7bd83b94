/**
 * Fees (docs/money-path.md: Fees): what a programme charges on every transaction it makes, by the
 * service's fee types — each a percentage of the transaction's amount (`"0.5%"`) or a fixed
 * token amount (`"0.10"`) — and the `fees` a new transaction carries. Percentages are computed in
 * exact decimal and rounded half-even to the account currency's minor unit, as amounts are; a fixed
 * fee may have no more fraction digits than that unit, so it is carried exactly as set.
 */
import { compare, minus, normalise, percentOf, sum } from './money.js';
import { FEE_TYPES, type Fee, type FeeType } from './transaction.js';

/** A programme's fees: each type set to a percentage or a fixed token amount; a type left out is not charged. */
export type FeeSettings = Partial<Record<FeeType, string>>;

const PERCENT = /^(\d+)(?:\.(\d+))?%$/;
const FIXED = /^(\d+)(?:\.(\d+))?$/;
/** Fraction digits of a percentage: a hundredth of a basis point. */
const PERCENT_DIGITS = 4;
/** What `feeProblem` takes, as a pattern: more than zero, a percentage up to 100% with 4 fraction digits, or a fixed amount with 2. */
export const FEE_PATTERN = '^(?=[^1-9]*[1-9])(?:(?:100(?:\\.0{1,4})?|[0-9]{1,2}(?:\\.[0-9]{1,4})?)%|[0-9]{1,18}(?:\\.[0-9]{1,2})?)$';
const MAX_INTEGER_DIGITS = 18;
/** The minor unit of every account currency (EUR, USD, GBP): the fraction digits a fixed fee may have. */
export const FIXED_FEE_DIGITS = 2;

const fraction = (digits: string | undefined) => (digits ?? '').replace(/0+$/, '');

/** Why `spec` is not a fee, or undefined when it is; `digits` is the fraction digits a fixed fee may have. */
export function feeProblem(spec: string, digits = FIXED_FEE_DIGITS): string | undefined {
  const percent = PERCENT.exec(spec);
  if (percent) {
    if (fraction(percent[2]).length > PERCENT_DIGITS) return `a percentage may have at most ${PERCENT_DIGITS} fraction digits, got "${spec}"`;
    const value = spec.slice(0, -1);
    if (compare(value, '0') <= 0) return 'must be more than 0%; leave the type out to charge nothing';
    if (compare(value, '100') > 0) return `must be at most 100%, got "${spec}"`;
    return undefined;
  }
  const fixed = FIXED.exec(spec);
  if (!fixed) return `must be a percentage such as "0.5%" or a fixed token amount such as "0.10", got "${spec}"`;
  if (fixed[1]!.replace(/^0+/, '').length > MAX_INTEGER_DIGITS) return `must have at most ${MAX_INTEGER_DIGITS} digits before the decimal point`;
  if (fraction(fixed[2]).length > digits) return `a fixed fee may have at most ${digits} fraction digits (the account currencies' minor unit), got "${spec}"`;
  if (compare(spec, '0') <= 0) return 'must be more than 0; leave the type out to charge nothing';
  return undefined;
}

/** A valid fee in its normal form: `"0.50%"` → `"0.5%"`, `"0.10"` → `"0.1"`. */
export function normaliseFee(spec: string): string {
  return spec.endsWith('%') ? `${normalise(spec.slice(0, -1))}%` : normalise(spec);
}

/**
 * What a transaction moves on the smart account, fees included in the settled amount as the
 * service's Fees page has it: a debit takes its amount and its fees, a credit brings its amount
 * less its fees (docs/money-path.md: Fees). Undefined when a credit's fees would take all of it.
 */
export function settledTokenAmount(direction: 'debit' | 'credit', amount: string, fees: readonly Fee[]): string | undefined {
  const charged = sum(fees.map((fee) => fee.tokenAmount));
  if (direction === 'debit') return sum([amount, charged]);
  return compare(charged, amount) < 0 ? minus(amount, charged) : undefined;
}

/** The fees of a transaction of `amount` whose currency has `digits` minor-unit digits, in the order of the service's fee types. */
export function feesFor(settings: FeeSettings, amount: string, digits: number): Fee[] {
  return FEE_TYPES.flatMap((type) => {
    const spec = settings[type];
    if (spec === undefined) return [];
    const tokens = spec.endsWith('%') ? percentOf(amount, spec.slice(0, -1), digits) : normalise(spec);
    return [{ type, tokenAmount: tokens }];
  });
}
