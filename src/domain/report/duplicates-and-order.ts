/**
 * `duplicates-and-order` (docs/go-live.md: Before you go live): the receiver answered 2xx to an event
 * sent twice and to events out of order, and acted on each event once. Whether it acted once the
 * sandbox sees only when the receiver says so, answering with `Sandbox-Processed: <times acted>`
 * (docs/go-live.md: Telling the sandbox what your receiver did); an event sent twice whose later
 * answers did not say is not judged. What the receiver made of the order is not judged at all.
 */
import { each, is2xx, problem, shown, verdict, type Seen } from './records.js';
import { answerOf } from './receiver-answers.js';
import type { CheckVerdict, Problem, ReportAttempt } from './types.js';
import { count } from '../words.js';

const TITLE = 'The receiver answered 2xx to duplicates and to events out of order, and acted on each event once';

export function duplicatesAndOrder(seen: Seen): CheckVerdict {
  const touched = each(seen, (p) => p.attempts.filter((a) => a.fault === 'duplicate' || a.fault === 'reordered'));
  const notAcked = touched.filter(({ item }) => !is2xx(item.statusCode));
  const problems: Problem[] = notAcked.map(({ item, programme }) =>
    problem(seen, programme, { deliveryId: item.deliveryId, why: `a ${item.fault === 'duplicate' ? 'duplicate' : 'reordered event'} ${answerOf(item)}` }),
  );
  let doubled = 0;
  let told = 0;
  let untold = 0;
  let duplicated = 0;
  for (const p of seen.programmes) {
    const byEvent = new Map<string, ReportAttempt[]>();
    for (const a of p.attempts) byEvent.set(a.eventId, [...(byEvent.get(a.eventId) ?? []), a]);
    for (const attempts of byEvent.values()) {
      const most = Math.max(0, ...attempts.map((a) => a.processed ?? 0));
      if (attempts.some((a) => a.processed !== null)) told++;
      if (most > 1) {
        doubled++;
        const at = attempts.find((a) => (a.processed ?? 0) > 1)!;
        problems.push(problem(seen, p.id, { deliveryId: at.deliveryId, why: `the receiver says it acted ${most} times on event ${at.eventId}` }));
      }
      const duplicate = attempts.find((a) => a.fault === 'duplicate');
      if (!duplicate) continue;
      duplicated++;
      if (most <= 1 && !attempts.some((a) => a.attempt >= duplicate.attempt && a.processed !== null)) untold++;
    }
  }
  return verdict(TITLE, {
    exercised: touched.length > 0 || doubled > 0,
    failed: problems.length > 0,
    notJudged: untold
      ? [
          {
            what: `whether the receiver acted once on ${count(untold, 'event')} it was sent twice`,
            why: 'its answers did not say how many times it acted (no Sandbox-Processed header)',
            instead:
              'answer each delivery with Sandbox-Processed: <times you acted on this eventId> (processingTally() from card-sandbox counts them), or count your side effects per eventId in your own test',
          },
        ]
      : [],
    finding: problems.length
      ? [notAcked.length && `${count(notAcked.length, 'attempt')} not answered 2xx`, doubled && `${count(doubled, 'event')} acted on more than once`]
          .filter(Boolean)
          .join('; ')
      : `${count(touched.length, 'duplicate or reordered attempt')}, each answered 2xx; ${count(duplicated - untold, 'event')} sent twice, acted on once`,
    evidence: {
      attempts: touched.length,
      notAcknowledged: notAcked.length,
      eventsSentTwice: duplicated,
      eventsTold: told,
      actedTwice: doubled,
      problems: shown(problems),
    },
    fix: 'act once per eventId and answer 2xx to a repeat; read the resource as it is now rather than trust the order',
    exercise: 'set the delivery-lab faults duplicate and reorder (webhooks faults set duplicate=0.3,reorder=0.3)',
  });
}
