/**
 * The money path's part of the go-live report's coverage (docs/go-live.md: Coverage): which
 * transaction directions and fee types the integration's transactions showed, which never, with
 * what makes each; and whether it ever met an authorisation refused `insufficient_funds`.
 */
import { FEE_TYPES, TRANSACTION_DIRECTIONS } from '../transaction.js';
import type { Report, ReportInput } from './types.js';

const DIRECTION_HINTS: Record<(typeof TRANSACTION_DIRECTIONS)[number], string> = {
  debit: 'a capture: an authorisation with capture: true, or PATCH /v1/simulator/authorisations/{authorisationId}/capture (`card-sandbox capture`)',
  credit: 'a refund: POST /_sandbox/simulator/cards/{cardId}/refund (`card-sandbox refund <cardId> --amount 5 --currency EUR`)',
};

const feeHint = (type: string) => `PUT /_sandbox/fees {"${type}":"0.5%"} before a transaction (\`card-sandbox fees set --${type} 0.5%\`)`;

export const INSUFFICIENT_FUNDS_HINT =
  'an authorisation beyond what the account has available: PUT /_sandbox/simulator/accounts/{accountId}/balance {"amount":"0"}, then authorise (`card-sandbox balance <accountId> --set 0`)';

function seenAndNever<T extends string>(all: readonly T[], seen: (value: T) => boolean, hint: (value: T) => string) {
  const never = all.filter((value) => !seen(value));
  return { seen: all.filter(seen), never, hints: Object.fromEntries(never.map((value) => [value, hint(value)])) };
}

export function moneyCoverage(input: ReportInput): Report['coverage']['money'] {
  const shown = (pick: 'directions' | 'feeTypes') => (value: string) => input.programmes.some((p) => p.money?.[pick].includes(value));
  const refusals = input.programmes.reduce((n, p) => n + p.requests.filter((r) => r.problem?.code === 'insufficient_funds').length, 0);
  return {
    directions: seenAndNever(TRANSACTION_DIRECTIONS, shown('directions'), (d) => DIRECTION_HINTS[d]),
    feeTypes: seenAndNever(FEE_TYPES, shown('feeTypes'), feeHint),
    insufficientFunds: { met: refusals > 0, refusals, ...(refusals === 0 && { hint: INSUFFICIENT_FUNDS_HINT }) },
  };
}
