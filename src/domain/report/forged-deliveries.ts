/**
 * `forged-deliveries` (docs/go-live.md: Before you go live): the receiver refused every kind of forged
 * delivery (docs/webhooks.md: Forged deliveries) with a 4xx it sent. A 2xx is an acceptance; a 5xx,
 * a redirect or no answer within 10 s is no refusal, for a receiver may have acted on the forgery
 * first. Kinds the forge fault has not tried yet are not judged.
 */
import { FORGERIES, type Forgery } from '../webhook-faults.js';
import { each, is2xx, is4xx, problem, shown, verdict, type Seen } from './records.js';
import { answerOf } from './receiver-answers.js';
import type { CheckVerdict, Problem } from './types.js';
import { count } from '../words.js';

const TITLE = 'The receiver refused every kind of forged delivery with a 4xx';

export function forgedDeliveries(seen: Seen): CheckVerdict {
  // An attempt forged before the kinds were recorded had its body changed.
  const forged = each(seen, (p) => p.attempts.filter((a) => a.fault === 'forged')).map(({ item, programme }) => ({
    item,
    programme,
    kind: item.forgery ?? ('body-changed' as Forgery),
  }));
  const kinds = Object.fromEntries(FORGERIES.map((k) => [k, { tried: 0, refused: 0, accepted: 0, otherwise: 0 }])) as Record<
    Forgery,
    { tried: number; refused: number; accepted: number; otherwise: number }
  >;
  const problems: Problem[] = [];
  for (const { item, programme, kind } of forged) {
    const tally = kinds[kind];
    tally.tried++;
    if (is4xx(item.statusCode)) tally.refused++;
    else {
      if (is2xx(item.statusCode)) tally.accepted++;
      else tally.otherwise++;
      problems.push(
        problem(seen, programme, { deliveryId: item.deliveryId, why: `${kind}: ${is2xx(item.statusCode) ? 'accepted, ' : 'not refused, '}${answerOf(item)}` }),
      );
    }
  }
  // Acceptances first: they are the worst.
  problems.sort((a, b) => Number(b.why.includes('accepted')) - Number(a.why.includes('accepted')));
  const accepted = FORGERIES.filter((k) => kinds[k].accepted > 0);
  const notRefused = FORGERIES.filter((k) => kinds[k].otherwise > 0);
  const neverTried = FORGERIES.filter((k) => kinds[k].tried === 0);
  return verdict(TITLE, {
    exercised: forged.length > 0,
    failed: problems.length > 0,
    notJudged: neverTried.length
      ? [
          {
            what: `forgeries never tried: ${neverTried.join(', ')}`,
            why: `the forge fault tries the ${FORGERIES.length} kinds in turn, and sent ${count(forged.length, 'forgery', 'forgeries')}`,
            instead: `forge more deliveries (a higher forge rate, or more events) until each of the ${FORGERIES.length} kinds has come round`,
          },
        ]
      : [],
    finding: problems.length
      ? [accepted.length && `accepted (2xx): ${accepted.join(', ')}`, notRefused.length && `not refused with a 4xx: ${notRefused.join(', ')}`]
          .filter(Boolean)
          .join('; ')
      : `${count(forged.length, 'forgery', 'forgeries')} of ${FORGERIES.length - neverTried.length} kinds, each refused with a 4xx`,
    evidence: { forged: forged.length, kinds, accepted, notRefused, neverTried, problems: shown(problems) },
    fix: 'verify every delivery before acting on it (verifyWebhook from card-sandbox/client: the digest, the signature by the verification key, its keyid and a created within 5 minutes) and answer 4xx when it fails',
    exercise: 'set the delivery-lab fault forge (webhooks faults set forge=0.3)',
  });
}
