import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextAttemptAt, RETRY_POLICY, retryWait } from './retry-policy.js';

const S = 1000;
const H = 3600 * S;

/** Attempt times of a delivery whose every attempt fails at once, with a fixed jitter draw. */
function schedule(random: number): number[] {
  const at = [0];
  for (let failures = 1; ; failures++) {
    const next = nextAttemptAt({ failures, firstAttemptAt: 0, failedAt: at.at(-1)!, random });
    if (next === undefined) return at;
    at.push(next);
  }
}

describe('retryWait', () => {
  it('retries immediately, then after 1 s, 2 s and 4 s, whatever the jitter draw', () => {
    for (const random of [0, 0.5, 0.999]) {
      expect([1, 2, 3, 4].map((n) => retryWait(n, random))).toEqual([0, 1 * S, 2 * S, 4 * S]);
    }
  });

  it('then doubles from 30 s (midpoint draw = no jitter)', () => {
    expect([5, 6, 7, 8, 9].map((n) => retryWait(n, 0.5))).toEqual([30 * S, 60 * S, 120 * S, 240 * S, 480 * S]);
  });

  it('jitters the doubling waits by ±20 %', () => {
    expect(retryWait(5, 0)).toBe(24 * S);
    expect(retryWait(5, 0.999999)).toBe(36 * S);
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 12 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (failures, random) => {
        const base = 30 * S * 2 ** (failures - 5);
        const wait = retryWait(failures, random);
        return wait >= Math.round(base * 0.8) && wait <= Math.min(Math.round(base * 1.2), 2 * H);
      }),
    );
  });

  it('caps every wait at 2 h, after jitter', () => {
    expect(retryWait(12, 0.999)).toBe(4_606_464); // 3840 s × 1.1996: under the cap
    expect(retryWait(13, 0.5)).toBe(2 * H); // 7680 s
    expect(retryWait(13, 0)).toBe(6144 * S); // 7680 s × 0.8: under the cap again
    expect(retryWait(14, 0)).toBe(2 * H); // 15360 s × 0.8
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, r) => retryWait(n, r) <= RETRY_POLICY.maxWaitMs,
      ),
    );
  });
});

describe('nextAttemptAt', () => {
  it('gives the documented schedule: 23 attempts over 22 h 7 min, then discard', () => {
    expect(schedule(0.5).map((t) => t / S)).toEqual([
      0, 0, 1, 3, 7, 37, 97, 217, 457, 937, 1897, 3817, 7657, 14857, 22057, 29257, 36457, 43657, 50857, 58057, 65257, 72457, 79657,
    ]);
  });

  it('makes 23 or 24 attempts, as docs/webhooks.md says, whatever the jitter draws', () => {
    expect(schedule(0)).toHaveLength(24);
    expect(schedule(0.999)).toHaveLength(23);
    fc.assert(fc.property(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (random) => [23, 24].includes(schedule(random).length)));
  });

  it('never schedules an attempt more than 24 h after the first, and ends for any jitter', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (random) => {
        const at = schedule(random);
        return at.at(-1)! <= 24 * H && at.length >= 20 && at.length <= 27;
      }),
    );
  });

  it('counts the window from the first attempt, including time spent waiting for slow answers', () => {
    // A 10 s timeout on attempt 1 pushes attempt 2 to 10 s; the window still ends at 24 h.
    expect(nextAttemptAt({ failures: 1, firstAttemptAt: 0, failedAt: 10 * S, random: 0.5 })).toBe(10 * S);
    expect(nextAttemptAt({ failures: 20, firstAttemptAt: 0, failedAt: 22 * H, random: 0.5 })).toBe(24 * H);
    expect(nextAttemptAt({ failures: 20, firstAttemptAt: 0, failedAt: 22 * H + 1, random: 0.5 })).toBeUndefined();
  });
});
