/**
 * `idempotency-keys` (docs/go-live.md: Before you go live): every write carried an Idempotency-Key (a
 * UUID), every retry of a failed write reused its key, and no retry made the same thing twice —
 * the same body written again under another key or none, after the first failed having committed
 * or before it was answered. Keys are read as sent, whatever --verify says.
 */
import { Uuid } from '../formats.js';
import { each, isWrite, problem, shown, verdict, type Seen } from './records.js';
import { duplicates, retries } from './writes.js';
import type { CheckVerdict, Problem } from './types.js';
import { count } from '../words.js';

const TITLE = 'Every state-changing request carried an Idempotency-Key, retries reused it, and no retry made a duplicate';

export function idempotencyKeys(seen: Seen): CheckVerdict {
  const writes = each(seen, (p) => p.requests.filter(isWrite));
  const problems: Problem[] = [];
  let withoutKey = 0;
  let invalidKey = 0;
  for (const { item, programme } of writes) {
    if (item.idempotencyKey === undefined) withoutKey++;
    else if (!Uuid.safeParse(item.idempotencyKey).success) invalidKey++;
    else continue;
    problems.push(
      problem(seen, programme, {
        requestId: item.requestId,
        why: item.idempotencyKey === undefined ? 'no Idempotency-Key' : `Idempotency-Key "${item.idempotencyKey}" is not a UUID`,
      }),
    );
  }
  const newKeys = each(seen, (p) => retries(p.requests).filter((r) => r.retry && !r.sameKey));
  for (const { item, programme } of newKeys) {
    const { failed, retry } = item;
    problems.push(
      problem(seen, programme, {
        requestId: retry!.requestId,
        why: `retried ${failed.requestId} (answered ${failed.status || 'nothing'}) ${retry!.idempotencyKey === undefined ? 'without a key' : failed.idempotencyKey === undefined ? 'whose first attempt had no key' : 'under a new key'}`,
      }),
    );
  }
  const doubles = each(seen, (p) => duplicates(p.requests));
  for (const { item, programme } of doubles) {
    const { first, second, because } = item;
    problems.push(
      problem(seen, programme, {
        requestId: second.requestId,
        why: `${second.method} ${second.path} with the body of ${first.requestId} (${because}) under ${second.idempotencyKey === undefined ? 'no key' : 'another key'}: made it twice`,
      }),
    );
  }
  const bad = withoutKey + invalidKey + newKeys.length + doubles.length;
  const parts = [
    withoutKey && `${count(withoutKey, 'write')} without a key`,
    invalidKey && `${count(invalidKey, 'key')} not a UUID`,
    newKeys.length && `${count(newKeys.length, 'retry', 'retries')} under a new key or none`,
    doubles.length && `${count(doubles.length, 'duplicate')} made by retries`,
  ].filter(Boolean);
  return verdict(TITLE, {
    exercised: writes.length > 0,
    failed: bad > 0,
    finding: bad
      ? parts.join('; ')
      : `${count(writes.length, 'write')}, each with a key; ${count(each(seen, (p) => retries(p.requests).filter((r) => r.sameKey)).length, 'retry', 'retries')} reused theirs`,
    evidence: {
      writes: writes.length,
      withoutKey,
      invalidKey,
      retriesUnderNewKey: newKeys.length,
      duplicates: doubles.length,
      replayed: writes.filter(({ item }) => item.replayed).length,
      problems: shown(problems),
    },
    fix: 'send Idempotency-Key: <a new UUID> on every POST, PUT, PATCH and DELETE, and the same one on every retry of it, even after a timeout',
    exercise: 'send POST, PUT, PATCH or DELETE requests',
  });
}
