/**
 * How a request states, in its JSON Schema, the amount rule `amountProblems` applies
 * (docs/api.md: Authorisations and transactions): for each number of minor-unit digits, when
 * `currency` is one of the currencies with that many, `amount` has the pattern of that many.
 */
import { amountPattern } from '../domain/money.js';
import { oneOfPattern } from './scalars.js';

/** The pattern an amount of any of these currencies has: that of the most minor-unit digits. */
export const anyAmountPattern = (currencies: Readonly<Record<string, number>>): string => amountPattern(Math.max(...Object.values(currencies)));

/** The object-level rules, one `if`/`then` per number of digits, for the request schema's metadata. */
export function amountRules(currencies: Readonly<Record<string, number>>) {
  const byDigits = new Map<number, string[]>();
  for (const [code, digits] of Object.entries(currencies)) byDigits.set(digits, [...(byDigits.get(digits) ?? []), code]);
  return {
    allOf: [...byDigits].map(([digits, codes]) => ({
      if: { required: ['currency'], properties: { currency: { pattern: oneOfPattern(codes.sort()) } } },
      then: { properties: { amount: { pattern: amountPattern(digits) } } },
    })),
  };
}
