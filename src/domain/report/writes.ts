/**
 * Which write retried which, and which writes made the same thing twice (docs/go-live.md: Before you
 * go live → How the report pairs a retry with its failure). A retry is the next write with the
 * failed one's Idempotency-Key, or the next with its body (its SHA-256 digest) to the same method and
 * path — whichever came first — so that another journey's concurrent write to the same path is never
 * taken for it, and a client that makes a new key per attempt shows. Within one programme.
 */
import { is2xx, isFailure, isWrite, pathOf } from './records.js';
import type { ReportRequest } from './types.js';

/** The same write: method, path and body digest. */
export const sameWrite = (a: ReportRequest, b: ReportRequest) =>
  a.method === b.method && pathOf(a) === pathOf(b) && a.bodyDigest !== undefined && a.bodyDigest === b.bodyDigest;

export interface Retry {
  failed: ReportRequest;
  /** The next attempt at the same write, if any. */
  retry?: ReportRequest;
  /** It carried the failed one's key. */
  sameKey: boolean;
  /** How many attempts before this one failed in the chain (0 for the first). */
  earlier: number;
}

/** Every failed write (5xx, 429, no answer), oldest first, with its retry. */
export function retries(requests: readonly ReportRequest[]): Retry[] {
  const writes = requests.filter(isWrite);
  const chainOf = new Map<ReportRequest, number>();
  const found: Retry[] = [];
  writes.forEach((failed, i) => {
    if (!isFailure(failed)) return;
    const retry = writes
      .slice(i + 1)
      .find(
        (later) =>
          (failed.idempotencyKey !== undefined &&
            later.idempotencyKey === failed.idempotencyKey &&
            later.method === failed.method &&
            pathOf(later) === pathOf(failed)) ||
          sameWrite(failed, later),
      );
    const earlier = chainOf.get(failed) ?? 0;
    if (retry) chainOf.set(retry, earlier + 1);
    found.push({
      failed,
      ...(retry && { retry }),
      sameKey: retry !== undefined && failed.idempotencyKey !== undefined && retry.idempotencyKey === failed.idempotencyKey,
      earlier,
    });
  });
  return found;
}

/** It took effect: answered 2xx afresh, or failed after the fault lab let it commit (`effect: after`). */
const tookEffect = (e: ReportRequest) => (is2xx(e.status) && !e.replayed) || (isFailure(e) && e.fault?.effect === 'after');

export interface Duplicate {
  first: ReportRequest;
  second: ReportRequest;
  /** Why the second was a retry: the first failed after committing, or was not answered yet when the second came. */
  because: 'failed after committing' | 'sent before the first was answered';
}

/**
 * The writes that made something twice: the same write under another key (or none), both taking
 * effect, the second sent after the first failed having committed, or before it was answered (the
 * client gave up waiting). Two writes of the same body, the second sent after the first's success,
 * are two things on purpose and not counted.
 */
export function duplicates(requests: readonly ReportRequest[]): Duplicate[] {
  const writes = requests.filter(isWrite);
  const found: Duplicate[] = [];
  const counted = new Set<ReportRequest>();
  writes.forEach((second, i) => {
    if (!tookEffect(second)) return;
    const first = writes
      .slice(0, i)
      .find(
        (earlier) =>
          !counted.has(earlier) &&
          sameWrite(earlier, second) &&
          (earlier.idempotencyKey === undefined || earlier.idempotencyKey !== second.idempotencyKey) &&
          tookEffect(earlier) &&
          (isFailure(earlier) || (earlier.real !== undefined && second.real !== undefined && second.real.received < earlier.real.answered)),
      );
    if (!first) return;
    counted.add(second);
    found.push({ first, second, because: isFailure(first) ? 'failed after committing' : 'sent before the first was answered' });
  });
  return found;
}
