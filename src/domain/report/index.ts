/**
 * The go-live report (docs/go-live.md: Before you go live): what the integrator's client and receiver
 * did right, did wrong, never tried, and did where the sandbox could not see how it went — computed
 * from what the sandbox records anyway (the request journal and the delivery attempts) of one
 * programme or of every programme a test run made, with evidence for each check and one line on
 * how to fix a failure. Pure: the records come in, the report goes out. A check per file.
 */
import { iso } from '../instant.js';
import { coverage } from './coverage.js';
import { duplicatesAndOrder } from './duplicates-and-order.js';
import { forgedDeliveries } from './forged-deliveries.js';
import { idempotencyKeys } from './idempotency-keys.js';
import { receiverAnswers } from './receiver-answers.js';
import { prepare, type Seen } from './records.js';
import { requestShapes } from './request-shapes.js';
import { retries } from './retries.js';
import { signatures } from './signatures.js';
import { tokenRenewal } from './token-renewal.js';
import { CHECK_STATUSES, type CheckStatus, type CheckVerdict, type Report, type ReportInput } from './types.js';

export * from './types.js';
export { SHAPE_WINDOW } from './request-shapes.js';

/** The checks, by their stable ids (JUnit test names), in the order the report gives them. */
const CHECKS = {
  signatures,
  'idempotency-keys': idempotencyKeys,
  retries,
  'token-renewal': tokenRenewal,
  'receiver-answers': receiverAnswers,
  'forged-deliveries': forgedDeliveries,
  'duplicates-and-order': duplicatesAndOrder,
  'request-shapes': requestShapes,
} satisfies Record<string, (seen: Seen) => CheckVerdict>;
export type CheckId = keyof typeof CHECKS;
export const CHECK_IDS = Object.keys(CHECKS) as [CheckId, ...CheckId[]];

export function goLiveReport(input: ReportInput): Report {
  const seen = prepare(input);
  const checks = Object.entries(CHECKS).map(([id, run]) => ({ id, ...run(seen) }));
  const summary = Object.fromEntries(CHECK_STATUSES.map((s) => [s, 0])) as Record<CheckStatus, number>;
  for (const c of checks) summary[c.status]++;
  let from = Infinity;
  let to = -Infinity;
  for (const p of input.programmes)
    for (const { real } of p.requests)
      if (real) {
        from = Math.min(from, real.received);
        to = Math.max(to, real.answered);
      }
  return {
    programmes: input.programmes.map((p) => p.programme),
    generatedAt: iso(input.now),
    ...(from <= to && { span: { from: iso(Math.floor(from)), to: iso(Math.ceil(to)) } }),
    summary,
    checks,
    coverage: coverage(input),
  };
}
