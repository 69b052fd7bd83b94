/**
 * `retries` (docs/go-live.md: Before you go live): a write answered 5xx, 429 or not at all was retried
 * with the same Idempotency-Key (paired by key or body, writes.ts), no sooner than its Retry-After.
 * The wait is measured on the machine's clock — from the failure's answer to the retry's arrival —
 * so a frozen or jumping sandbox clock changes nothing; a quarter second is allowed for timers.
 */
import { each, problem, shown, verdict, type Seen } from './records.js';
import { retries as retriesOf } from './writes.js';
import type { CheckVerdict, NotJudged, Problem } from './types.js';
import { count } from '../words.js';

const TITLE = 'After a 5xx, a 429 or a dropped connection the client retried the write with the same Idempotency-Key, no sooner than Retry-After';
/** How much earlier than Retry-After a retry may come: timers fire late, never this early. */
export const RETRY_AFTER_LEEWAY_MS = 250;

export function retries(seen: Seen): CheckVerdict {
  const found = each(seen, (p) => retriesOf(p.requests));
  const problems: Problem[] = [];
  let gaveUp = 0;
  let asked = 0;
  let honoured = 0;
  let unmeasured = 0;
  for (const { item, programme } of found) {
    const { failed, retry, sameKey, earlier } = item;
    const at = (why: string) => problems.push(problem(seen, programme, { requestId: failed.requestId, why }));
    if (!retry) {
      // A client may stop after some attempts; one that never retried at all did not try.
      if (earlier > 0) gaveUp++;
      else at(`answered ${failed.status || 'nothing'}, never retried`);
      continue;
    }
    if (!sameKey)
      at(
        `retried as ${retry.requestId} ${retry.idempotencyKey === undefined ? 'without a key' : failed.idempotencyKey === undefined ? 'but it had no key' : 'under a new key'}`,
      );
    const wait = failed.fault?.retryAfter;
    if (wait === undefined) continue;
    asked++;
    if (!failed.real || !retry.real) {
      unmeasured++;
      continue;
    }
    const waited = retry.real.received - failed.real.answered;
    if (waited < wait * 1000 - RETRY_AFTER_LEEWAY_MS)
      at(`retried as ${retry.requestId} ${(Math.max(waited, 0) / 1000).toFixed(2)} s after the answer, sooner than Retry-After: ${wait}`);
    else honoured++;
  }
  const notJudged: NotJudged[] = unmeasured
    ? [
        {
          what: `whether ${count(unmeasured, 'retry', 'retries')} waited for Retry-After`,
          why: 'their requests were journaled without the times they came and were answered (a snapshot from an older sandbox)',
          instead: 'run the retries again against this sandbox',
        },
      ]
    : [];
  const retried = found.filter(({ item }) => item.retry).length;
  return verdict(TITLE, {
    exercised: found.length > 0,
    failed: problems.length > 0,
    notJudged,
    finding: problems.length
      ? `${count(problems.length, 'failed write')} not retried as it should be, of ${found.length}`
      : `${count(found.length, 'failed write')}: ${retried} retried with the same key${asked ? `, ${honoured} of ${asked} after Retry-After` : ''}${gaveUp ? `; ${gaveUp} given up after retries` : ''}`,
    evidence: {
      failures: found.length,
      retried,
      sameKey: found.filter(({ item }) => item.sameKey).length,
      retryAfter: { asked, honoured },
      gaveUp,
      problems: shown(problems),
    },
    fix: 'retry a failed write with the same Idempotency-Key (the answer may have been lost after it committed), waiting at least Retry-After',
    exercise: 'inject failures with the API fault lab (PUT /_sandbox/api/faults) and let the client meet them',
  });
}
