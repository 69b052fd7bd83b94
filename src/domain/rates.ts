/**
 * Moving rates (docs/money-path.md: Moving rates): a programme may move the rate of any currency of
 * the shipped table (units per one unit of its base, USD), and every conversion made from then on —
 * an authorisation, a refund, a capture — uses the table so moved. What is moved is kept apart from
 * the table, so moving nothing (`{}`) is the table again.
 */
import type { FieldError } from './errors.js';
import { normalise, type RateTable } from './money.js';

/** The rates a programme moved, by currency, each as a decimal string in its normal form. */
export type MovedRates = Record<string, string>;

const PLAIN = /^(\d+)(?:\.(\d+))?$/;
/** Significant digits of a rate: as many as a pair rate keeps. */
const RATE_DIGITS = 10;

function rateProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a decimal string such as "0.95"';
  const match = PLAIN.exec(value);
  if (!match) return `must be a decimal string in plain notation such as "0.95", got "${value}"`;
  const digits = `${match[1]}${match[2] ?? ''}`.replace(/^0+/, '').replace(/0+$/, '');
  if (digits === '') return 'must be more than 0';
  if (digits.length > RATE_DIGITS) return `may have at most ${RATE_DIGITS} significant digits, got "${value}"`;
  return undefined;
}

/** Everything wrong with `moved` against the shipped `table`, one entry per currency named. */
export function movedRatesProblems(moved: Record<string, unknown>, table: RateTable): FieldError[] {
  const problems: FieldError[] = [];
  for (const [currency, value] of Object.entries(moved)) {
    if (currency === table.base) problems.push({ path: currency, message: `${table.base} is the base of the rate table: its rate is 1 by definition` });
    else if (!Object.hasOwn(table.rates, currency))
      problems.push({ path: currency, message: `not a currency of the rate table; its currencies: ${Object.keys(table.rates).join(', ')}` });
    else {
      const problem = rateProblem(value);
      if (problem) problems.push({ path: currency, message: problem });
    }
  }
  return problems;
}

/** `moved`, already checked, in its normal form and the table's order of currencies. */
export function normaliseMoved(moved: Record<string, string>, table: RateTable): MovedRates {
  return Object.fromEntries(Object.keys(table.rates).flatMap((c) => (Object.hasOwn(moved, c) ? [[c, normalise(moved[c]!)]] : [])));
}

/** The table with the programme's moved rates in place of its own. */
export function movedTable(table: RateTable, moved: MovedRates): RateTable {
  return Object.keys(moved).length ? { base: table.base, rates: { ...table.rates, ...moved } } : table;
}
