/**
 * `receiver-answers` (docs/go-live.md: Before you go live): every delivery attempt the receiver really
 * answered was a 2xx within 10 s. Answers the delivery lab gave in its place, and forged attempts
 * (judged by `forged-deliveries`), are left out.
 */
import type { ReportAttempt } from './types.js';
import { each, is2xx, problem, shown, verdict, type Seen } from './records.js';
import type { CheckVerdict } from './types.js';
import { count } from '../words.js';

const TITLE = 'The receiver answered every delivery with a 2xx within 10 s';
const RECEIVER_DEADLINE_MS = 10_000;

/** How an attempt went, in a few words. */
export const answerOf = (a: ReportAttempt) => (a.statusCode !== null ? `answered ${a.statusCode} in ${a.durationMs} ms` : (a.error ?? 'no answer'));

export function receiverAnswers(seen: Seen): CheckVerdict {
  const real = each(seen, (p) => p.attempts.filter((a) => a.fault !== 'injected-status' && a.fault !== 'injected-timeout' && a.fault !== 'forged'));
  const bad = real.filter(({ item }) => !is2xx(item.statusCode) || item.durationMs > RECEIVER_DEADLINE_MS);
  return verdict(TITLE, {
    exercised: real.length > 0,
    failed: bad.length > 0,
    finding: bad.length
      ? `${count(bad.length, 'attempt')} of ${real.length} not answered 2xx within 10 s`
      : `${count(real.length, 'attempt')}, each answered 2xx within 10 s`,
    evidence: {
      attempts: real.length,
      failed: bad.length,
      problems: shown(
        bad.map(({ item, programme }) => problem(seen, programme, { deliveryId: item.deliveryId, why: `attempt ${item.attempt} ${answerOf(item)}` })),
      ),
    },
    fix: 'answer 2xx quickly and do the work afterwards; see each attempt with events show',
    exercise: 'subscribe your receiver (PUT /v1/webhooks) and make events happen',
  });
}
