/**
 * Funds (docs/money-path.md: Funds): each account's smart account holds a balance in its currency;
 * a pending authorisation holds part of it in escrow, as the service's Authorisation States and
 * Smart Contracts pages describe; what is left is available. A payment or an update beyond what is
 * available is refused `insufficient_funds`. Pure: amounts are exact decimal strings.
 */
import { compare, MAX_INTEGER_DIGITS, minus, sum } from './money.js';

/** A new account's balance when neither `--starting-balance` nor its programme says otherwise: enough for any journey short of a deliberate refusal. */
export const DEFAULT_STARTING_BALANCE = '1000000';

/** An account's funds as the control plane answers them, in its currency. */
export interface Funds {
  balance: string;
  held: string;
  available: string;
}

/** The funds of an account whose balance is `balance` and whose pending authorisations hold `holds`. */
export function fundsOf(balance: string, holds: readonly string[]): Funds {
  const held = sum(holds);
  return { balance, held, available: minus(balance, held) };
}

/** Why `amount` cannot be held or taken from `funds` in `currency`, or undefined when it can. */
export function insufficientFunds(funds: Funds, amount: string, currency: string): string | undefined {
  if (compare(amount, funds.available) <= 0) return undefined;
  return `insufficient funds: ${amount} ${currency} asked, ${funds.available} ${currency} available (balance ${funds.balance}, held ${funds.held})`;
}

/** A balance: 0 or more, at most 2 fraction digits. */
export const BALANCE_PATTERN = `^[0-9]{1,${MAX_INTEGER_DIGITS}}(\\.[0-9]{1,2})?$`;
const BALANCE = new RegExp(BALANCE_PATTERN);

/** Why `value` is not a balance (a decimal string, 0 or more, at most two fraction digits), or undefined when it is. */
export function balanceProblem(value: string): string | undefined {
  if (!BALANCE.test(value)) return `must be a decimal string of 0 or more with at most 2 fraction digits, such as "100" or "250.50", got "${value}"`;
  return undefined;
}
