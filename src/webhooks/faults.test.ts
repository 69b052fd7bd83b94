import { describe, expect, it } from 'vitest';
import type { Faults } from '../domain/webhook-faults.js';
import { decideAttempt, RECHECK_MS, REORDER_HOLD_MS, SEND, seededDraw, type AttemptFacts, type Draw } from './faults.js';

const T = 1_000_000;
const facts = (overrides: Partial<AttemptFacts> = {}): AttemptFacts => ({
  attempt: 1,
  at: T,
  held: null,
  overtakes: () => false,
  laterPending: () => undefined,
  ...overrides,
});
const always: Draw = () => 0;
const never: Draw = () => 0.999999;

describe('decideAttempt', () => {
  it('sends without deciding anything when there are no faults', () => {
    expect(decideAttempt(undefined, facts(), always)).toBe(SEND);
    expect(decideAttempt({}, facts(), always)).toBe(SEND);
    expect(decideAttempt({ seed: 3, duplicate: 0, timeout: 0 }, facts(), always)).toBe(SEND);
  });

  it('holds a first attempt back for reordering, unless it is the later event that overtakes one held', () => {
    expect(decideAttempt({ reorder: 1 }, facts(), always)).toEqual({ action: 'hold', hold: 'holding', forMs: REORDER_HOLD_MS });
    expect(decideAttempt({ reorder: 1 }, facts({ overtakes: () => true }), always)).toBe(SEND);
    expect(decideAttempt({ reorder: 1 }, facts({ attempt: 2 }), always)).toBe(SEND);
    expect(decideAttempt({ reorder: 0.5 }, facts(), never)).toBe(SEND);
  });

  it('keeps a held event waiting while a later one is pending, then sends it as reordered or delayed', () => {
    expect(decideAttempt({ reorder: 1 }, facts({ held: 'holding', laterPending: () => T + 30_000 }), always)).toEqual({
      action: 'hold',
      hold: 'holding',
      forMs: 30_000,
    });
    expect(decideAttempt({ reorder: 1 }, facts({ held: 'holding', laterPending: () => T - 5 }), always)).toEqual({
      action: 'hold',
      hold: 'holding',
      forMs: RECHECK_MS,
    });
    expect(decideAttempt(undefined, facts({ held: 'holding', laterPending: () => null }), always)).toEqual({
      action: 'hold',
      hold: 'holding',
      forMs: REORDER_HOLD_MS,
    });
    expect(decideAttempt({ reorder: 1 }, facts({ held: 'holding' }), never)).toEqual({ action: 'send', fault: 'delayed', duplicate: false });
    expect(decideAttempt(undefined, facts({ held: 'reordered' }), always)).toEqual({ action: 'send', fault: 'reordered', duplicate: false });
    expect(decideAttempt({ duplicate: 1 }, facts({ held: 'delayed' }), always)).toEqual({ action: 'send', fault: 'delayed', duplicate: true });
  });

  it('delays a first attempt by a draw from the range, both ends included', () => {
    const delay: Faults = { delay: { minMs: 2000, maxMs: 4000 } };
    expect(decideAttempt(delay, facts(), always)).toEqual({ action: 'hold', hold: 'delayed', forMs: 2000 });
    expect(decideAttempt(delay, facts(), never)).toEqual({ action: 'hold', hold: 'delayed', forMs: 4000 });
    expect(decideAttempt({ delay: { minMs: 0, maxMs: 0 } }, facts(), never)).toBe(SEND);
    expect(decideAttempt(delay, facts({ attempt: 2 }), always)).toBe(SEND);
  });

  it('answers for the receiver: the next N attempts, a rate of them, or silence', () => {
    expect(decideAttempt({ fail: { status: 503, times: 3, remaining: 1 } }, facts({ attempt: 7 }), never)).toEqual({
      action: 'answer',
      fault: 'injected-status',
      statusCode: 503,
      spendsFail: true,
    });
    expect(decideAttempt({ fail: { status: 503, times: 3, remaining: 0 } }, facts(), always)).toBe(SEND);
    expect(decideAttempt({ fail: { status: 429, rate: 0.5 } }, facts(), always)).toEqual({
      action: 'answer',
      fault: 'injected-status',
      statusCode: 429,
      spendsFail: false,
    });
    expect(decideAttempt({ fail: { status: 429, rate: 0.5 } }, facts(), never)).toBe(SEND);
    expect(decideAttempt({ timeout: 1 }, facts(), always)).toEqual({ action: 'answer', fault: 'injected-timeout' });
    // A held event may be answered for too: the hold passes on to the attempt that reaches the receiver.
    expect(decideAttempt({ timeout: 1 }, facts({ held: 'reordered' }), always)).toEqual({ action: 'answer', fault: 'injected-timeout' });
  });

  it('duplicates what it sends, at the rate asked', () => {
    expect(decideAttempt({ duplicate: 1 }, facts(), never)).toEqual({ action: 'send', duplicate: true });
    expect(decideAttempt({ duplicate: 0.3 }, facts(), never)).toBe(SEND);
  });

  it('forges what it sends, at the rate asked, once and never duplicated', () => {
    expect(decideAttempt({ forge: 1, duplicate: 1 }, facts(), always)).toEqual({ action: 'send', fault: 'forged', duplicate: false });
    expect(decideAttempt({ forge: 0.3 }, facts(), never)).toBe(SEND);
  });
});

describe('seededDraw', () => {
  it('depends only on the seed, the event, the attempt and the fault', () => {
    const a = seededDraw(42, 7, 1);
    const kinds = ['delay', 'reorder', 'fail', 'timeout', 'duplicate'] as const;
    const first = kinds.map((k) => a(k));
    expect(
      [...kinds]
        .reverse()
        .map((k) => seededDraw(42, 7, 1)(k))
        .reverse(),
    ).toEqual(first);
    expect(new Set(first).size).toBe(5);
    expect(kinds.map((k) => seededDraw(43, 7, 1)(k))).not.toEqual(first);
    expect(kinds.map((k) => seededDraw(42, 8, 1)(k))).not.toEqual(first);
    expect(kinds.map((k) => seededDraw(42, 7, 2)(k))).not.toEqual(first);
  });

  it('spreads its draws evenly over [0, 1)', () => {
    const draws = Array.from({ length: 20_000 }, (_, i) => seededDraw(1, i, 1 + (i % 5))('duplicate'));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const buckets = Array.from({ length: 10 }, (_, b) => draws.filter((d) => Math.floor(d * 10) === b).length);
    for (const n of buckets) expect(Math.abs(n - 2000)).toBeLessThan(200);
  });
});
