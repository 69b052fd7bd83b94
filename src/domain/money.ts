/**
 * Money: exact decimal amounts (decimal.js, never JS numbers), ISO 4217 minor units, the fixed
 * rate table and conversion. Amounts travel as strings normalised without trailing zeros; a
 * conversion multiplies by the pair rate and rounds half-even to the target currency's minor
 * unit. The tables are passed in (the service loads them from fixtures/), so all of this is pure.
 */
import { Decimal } from 'decimal.js';
import type { FieldError } from './errors.js';

/**
 * 64 significant digits hold every product of an accepted amount (at most 18 + 4 digits) and a
 * rate (10 significant digits) exactly, so the only rounding is the one we ask for.
 */
const Exact = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -100, toExpPos: 100 });

export interface RateTable {
  base: string;
  /** Units of each currency per one unit of `base`, as decimal strings. */
  rates: Readonly<Record<string, string>>;
}

export interface MoneyTables {
  /** ISO 4217 code → minor-unit digits (JPY 0, EUR 2, KWD 3). */
  currencies: Readonly<Record<string, number>>;
  rates: RateTable;
}

/** Digits before the point an amount may have: far beyond any card payment, and keeps arithmetic exact. */
export const MAX_INTEGER_DIGITS = 18;
/** Significant digits of a pair rate derived through the base currency. */
const RATE_SIGNIFICANT_DIGITS = 10;

/**
 * What an amount of a currency with `digits` minor-unit digits may be, as a pattern: plain notation,
 * greater than zero, at most MAX_INTEGER_DIGITS before the point (leading zeros aside) and at most
 * `digits` fraction digits (trailing zeros aside). `amountProblem` says why a value is not one.
 */
export const amountPattern = (digits: number): string =>
  `^(?!0*(\\.0+)?$)0*[0-9]{1,${MAX_INTEGER_DIGITS}}${digits === 0 ? '(\\.0+)?' : `(\\.[0-9]{1,${digits}}0*)?`}$`;

/** Plain notation only: digits, optionally a point and more digits. No sign, exponent or spaces. */
const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** The canonical string of a decimal: plain notation, no trailing zeros ("20.0" → "20", "1.50" → "1.5"). */
export function normalise(value: Decimal.Value): string {
  return new Exact(value).toFixed();
}

function unknownCurrency(code: string, currencies: MoneyTables['currencies']): string {
  const upper = code.toUpperCase();
  if (upper !== code && currencies[upper] !== undefined) return `"${code}" is not an ISO 4217 code; codes are upper case: "${upper}"`;
  return `"${code}" is not an ISO 4217 currency code the sandbox knows (e.g. EUR, USD, GBP, JPY)`;
}

function amountProblem(amount: string, currency: string | undefined, digits: number | undefined): string | undefined {
  const match = PLAIN_DECIMAL.exec(amount);
  if (!match) return `must be a decimal string in plain notation such as "12.50", got "${amount}"`;
  if (match[1]!.replace(/^0+/, '').length > MAX_INTEGER_DIGITS) return `must have at most ${MAX_INTEGER_DIGITS} digits before the decimal point`;
  if (new Exact(amount).isZero()) return 'must be greater than 0';
  // Trailing zeros carry no value: "20.0" is a whole JPY amount.
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (digits !== undefined && fraction.length > digits) {
    return digits === 0
      ? `${currency} has no minor unit: the amount must be a whole number, got "${amount}"`
      : `${currency} allows at most ${digits} fraction digit${digits === 1 ? '' : 's'}, got "${amount}"`;
  }
  return undefined;
}

/**
 * Everything wrong with an amount in a currency, one entry per bad field: with `rates`, a currency
 * the table has no rate for is one. Values that are not strings are skipped: the request schema
 * reports their type.
 */
export function amountProblems(amount: unknown, currency: unknown, currencies: MoneyTables['currencies'], rates?: RateTable): FieldError[] {
  const problems: FieldError[] = [];
  let digits: number | undefined;
  if (typeof currency === 'string') {
    digits = Object.hasOwn(currencies, currency) ? currencies[currency] : undefined;
    if (digits === undefined) problems.push({ path: 'currency', message: unknownCurrency(currency, currencies) });
    else if (rates && !Object.hasOwn(rates.rates, currency))
      problems.push({
        path: 'currency',
        message: `the sandbox rate table has no rate for ${currency}; currencies with rates: ${Object.keys(rates.rates).join(', ')}`,
      });
  }
  if (typeof amount === 'string') {
    const problem = amountProblem(amount, typeof currency === 'string' ? currency : undefined, digits);
    if (problem) problems.push({ path: 'amount', message: problem });
  }
  return problems;
}

/**
 * The rate from `from` to `to`: 1 when equal, else rates[to] / rates[from] rounded half-even to
 * 10 significant digits. Undefined when either currency is missing from the table.
 */
export function exchangeRate(rates: RateTable, from: string, to: string): Decimal | undefined {
  if (from === to) return new Exact(1);
  const a = Object.hasOwn(rates.rates, from) ? rates.rates[from] : undefined;
  const b = Object.hasOwn(rates.rates, to) ? rates.rates[to] : undefined;
  if (a === undefined || b === undefined) return undefined;
  // The 64-digit quotient of two short decimals cannot sit on a false tie at digit 11.
  return new Exact(b).div(a).toSignificantDigits(RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_EVEN);
}

export interface Conversion {
  /** merchantAmount × exchangeRate, rounded half-even to the target's minor unit, normalised. */
  amount: string;
  exchangeRate: string;
}

/** Converts a valid `amount` of `from` into `to`; undefined when the table has no rate for the pair. */
export function convert(tables: MoneyTables, amount: string, from: string, to: string): Conversion | undefined {
  const rate = exchangeRate(tables.rates, from, to);
  if (rate === undefined) return undefined;
  const digits = tables.currencies[to];
  if (digits === undefined) throw new Error(`no minor unit for ${to}`);
  const converted = new Exact(amount).times(rate).toDecimalPlaces(digits, Decimal.ROUND_HALF_EVEN);
  return { amount: normalise(converted), exchangeRate: normalise(rate) };
}

/**
 * A payment's `amount` of the merchant's currency `from` in the account's currency `to`, or why it
 * cannot be made: no rate for the pair, or less than one minor unit of `to` (each a field error).
 */
export function convertPayment(tables: MoneyTables, amount: string, from: string, to: string): Conversion | FieldError {
  const conversion = convert(tables, amount, from, to);
  if (!conversion) {
    const message = `the sandbox rate table has no rate from ${from} to the account currency ${to}; currencies with rates: ${Object.keys(tables.rates.rates).join(', ')}`;
    return { path: 'currency', message };
  }
  if (conversion.amount === '0')
    return { path: 'amount', message: `${normalise(amount)} ${from} is less than the smallest unit of the account currency ${to}` };
  return conversion;
}

/** `amount` times `rate`, rounded half-even to `digits` fraction digits: a merchant's amount in the account's currency. */
export function convertAt(amount: string, rate: string, digits: number): string {
  return normalise(new Exact(amount).times(rate).toDecimalPlaces(digits, Decimal.ROUND_HALF_EVEN));
}

/** `amount` divided by `rate`, rounded half-even to `digits` fraction digits: a part of a payment back in the merchant's currency. */
export function unconvert(amount: string, rate: string, digits: number): string {
  return normalise(new Exact(amount).div(rate).toDecimalPlaces(digits, Decimal.ROUND_HALF_EVEN));
}

/** `percent` per cent of `amount`, rounded half-even to `digits` fraction digits. */
export function percentOf(amount: string, percent: string, digits: number): string {
  return normalise(new Exact(amount).times(percent).div(100).toDecimalPlaces(digits, Decimal.ROUND_HALF_EVEN));
}

/** `amount` grown by `percent` per cent, rounded down to `digits` fraction digits: a ceiling never passed by rounding. */
export function grownBy(amount: string, percent: number, digits: number): string {
  return normalise(
    new Exact(amount)
      .times(100 + percent)
      .div(100)
      .toDecimalPlaces(digits, Decimal.ROUND_DOWN),
  );
}

/** The sum of decimal strings, exactly. */
export function sum(values: readonly string[]): string {
  return normalise(values.reduce((total, value) => total.plus(value), new Exact(0)));
}

/** `a` less `b`, exactly. */
export function minus(a: string, b: string): string {
  return normalise(new Exact(a).minus(b));
}

/** -1, 0 or 1 as `a` is less than, equal to or more than `b`. */
export function compare(a: string, b: string): -1 | 0 | 1 {
  return new Exact(a).comparedTo(b) as -1 | 0 | 1;
}
