import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration.js';
import { SandboxError } from './errors.js';
import { hasFaults, parseDelay, parseFaultsSpec, type Faults } from './webhook-faults.js';
import {
  attemptDraw,
  decideAttempt,
  exhausted,
  heldAfterResume,
  holdAfter,
  letGo,
  RECHECK_MS,
  releasesHolds,
  REORDER_HOLD_MS,
  retried,
  SEND,
  seededDraw,
  spendFail,
  type AttemptFacts,
  type ControlledDelivery,
  type Draw,
} from './webhook-attempts.js';
import { faultsView } from '../wire/delivery-lab.js';

describe('the --webhook-faults syntax', () => {
  it('reads the issue example and every field, nested ones dotted', () => {
    expect(parseFaultsSpec('duplicate=0.2,reorder=0.2,delay=2s-30s')).toEqual({
      faults: { duplicate: 0.2, reorder: 0.2, delay: { minMs: 2000, maxMs: 30_000 } },
    });
    expect(parseFaultsSpec(' fail.status=503 , fail.times=3,timeout=0.1,seed=7,delay=PT5S ')).toEqual({
      faults: { fail: { status: 503, times: 3, remaining: 3 }, timeout: 0.1, seed: 7, delay: { minMs: 5000, maxMs: 5000 } },
    });
    expect(parseFaultsSpec('fail.status=500,fail.rate=0.25')).toEqual({ faults: { fail: { status: 500, rate: 0.25 } } });
    expect(parseFaultsSpec('')).toEqual({ faults: {} });
  });

  it.each([
    ['duplicates=0.2', 'duplicates', 'is not a fault'],
    ['duplicate', 'duplicate', 'needs a value'],
    ['duplicate=', 'duplicate', 'needs a value'],
    ['duplicate=lots', 'duplicate', 'expected number'],
    ['duplicate=2', 'duplicate', 'probability'],
    ['delay=30s-2s', 'delay', 'shorter'],
    ['fail.status=503', 'fail', 'times'],
    ['fail.status=99,fail.times=1', 'fail.status', 'HTTP status'],
    ['seed=1.5', 'seed', 'integer'],
  ])('refuses %s, naming %s', (spec, path, message) => {
    const parsed = parseFaultsSpec(spec);
    expect(parsed).toEqual({ errors: [expect.objectContaining({ path, message: expect.stringContaining(message) })] });
  });
});

describe('delays', () => {
  it.each([
    ['5s', { minMs: 5000, maxMs: 5000 }],
    ['0s-1m', { minMs: 0, maxMs: 60_000 }],
    ['500ms-2s', { minMs: 500, maxMs: 2000 }],
    ['PT1M-PT2M', { minMs: 60_000, maxMs: 120_000 }],
    ['24h', { minMs: 86_400_000, maxMs: 86_400_000 }],
  ])('reads %s', (text, range) => expect(parseDelay(text)).toEqual(range));

  it.each(['', '-', '5s-', 'soon', '2s-1s', '1d-25h', '-5s'])('refuses %j', (text) => expect(typeof parseDelay(text)).toBe('string'));

  it('writes durations back in the largest unit that divides them', () => {
    expect([0, 500, 2000, 90_000, 120_000, 7_200_000, 86_400_000, 1500].map(formatDuration)).toEqual(['0ms', '500ms', '2s', '90s', '2m', '2h', '1d', '1500ms']);
    expect(faultsView({ delay: { minMs: 2000, maxMs: 30_000 }, duplicate: 1 })).toEqual({ delay: '2s-30s', duplicate: 1 });
    expect(faultsView({ delay: { minMs: 60_000, maxMs: 60_000 } })).toEqual({ delay: '1m' });
  });
});

describe('hasFaults', () => {
  it('is true only when some fault can happen', () => {
    expect(hasFaults(undefined)).toBe(false);
    expect(hasFaults({ seed: 1, duplicate: 0, reorder: 0, timeout: 0, delay: { minMs: 0, maxMs: 0 }, fail: { status: 503, times: 1, remaining: 0 } })).toBe(
      false,
    );
    expect(hasFaults({ fail: { status: 503, rate: 0.1 } })).toBe(true);
    expect(hasFaults({ fail: { status: 503, times: 2, remaining: 1 } })).toBe(true);
    expect(hasFaults({ delay: { minMs: 0, maxMs: 1 } })).toBe(true);
  });
});

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
    expect(decideAttempt({ forge: 1, duplicate: 1 }, facts(), always)).toEqual({ action: 'send', fault: 'forged', forgery: 'body-changed', duplicate: false });
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

describe('spending one of fail.times', () => {
  it('counts down to 0 and no further, and leaves a rate as it is', () => {
    const times: Faults = { duplicate: 0.5, fail: { status: 503, times: 2, remaining: 1 } };
    expect(spendFail(times)).toEqual({ duplicate: 0.5, fail: { status: 503, times: 2, remaining: 0 } });
    expect(spendFail(spendFail(times))).toEqual({ duplicate: 0.5, fail: { status: 503, times: 2, remaining: 0 } });
    const rate: Faults = { fail: { status: 500, rate: 0.5 } };
    expect(spendFail(rate)).toBe(rate);
    expect(spendFail({ duplicate: 1 })).toEqual({ duplicate: 1 });
  });
});

describe('attemptDraw', () => {
  it('draws from the seed when the faults name one, else from the randomness it is given', () => {
    const unseeded: Draw = () => 0.25;
    expect(attemptDraw({ duplicate: 1 }, 7, 1, unseeded)).toBe(unseeded);
    expect(attemptDraw(undefined, 7, 1, unseeded)).toBe(unseeded);
    const seeded = attemptDraw({ duplicate: 1, seed: 0 }, 7, 2, unseeded);
    expect(seeded('duplicate')).toBe(seededDraw(0, 7, 2)('duplicate'));
  });
});

describe('holds', () => {
  it('let go before what they waited for, a reordering hold counts as a delay', () => {
    expect(letGo('holding')).toBe('delayed');
    expect(letGo('delayed')).toBe('delayed');
    expect(letGo('reordered')).toBe('reordered');
    expect(letGo(null)).toBeNull();
  });

  it("pass from an answer given in the receiver's place to the attempt that reaches it, which ends them", () => {
    expect(holdAfter('injected-status', 'holding')).toBe('delayed');
    expect(holdAfter('injected-timeout', 'reordered')).toBe('reordered');
    expect(holdAfter('injected-status', null)).toBeNull();
    for (const fault of [undefined, 'delayed', 'reordered', 'duplicate', 'forged'] as const) expect(holdAfter(fault, 'delayed')).toBeNull();
  });

  it('are let go in a scope whose faults no longer reorder', () => {
    expect(releasesHolds(undefined)).toBe(true);
    expect(releasesHolds({})).toBe(true);
    expect(releasesHolds({ reorder: 0, duplicate: 1 })).toBe(true);
    expect(releasesHolds({ reorder: 0.5 })).toBe(false);
  });
});

describe('resuming', () => {
  it('keeps held, for the programme, the subscriptions paused on their own, and for one, all of them while the programme is paused', () => {
    expect(heldAfterResume(undefined, true, new Set(['wh1', 'wh2']))).toEqual(['wh1', 'wh2']);
    expect(heldAfterResume(undefined, false, new Set())).toEqual([]);
    expect(heldAfterResume('wh1', true, new Set(['wh1']))).toBeUndefined();
    expect(heldAfterResume('wh1', false, new Set(['wh1', 'wh2']))).toEqual([]);
  });
});

describe('the delivery controls', () => {
  const delivery = (overrides: Partial<ControlledDelivery> = {}): ControlledDelivery => ({
    id: 'd1',
    eventId: 'e1',
    status: 'pending',
    hold: null,
    ...overrides,
  });
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error instanceof SandboxError ? { code: error.code, detail: error.detail } : error;
    }
    return undefined;
  };

  it('retry makes the next attempt due now, letting a hold go, and gives a discarded delivery one more while its webhook exists', () => {
    const pending = { status: 'pending', nextAttemptAt: T, pausedDueAt: null, updatedAt: T };
    expect(retried(delivery(), T, () => false)).toEqual({ ...pending, hold: null });
    expect(retried(delivery({ hold: 'holding' }), T, () => false)).toEqual({ ...pending, hold: 'delayed' });
    expect(retried(delivery({ status: 'discarded', hold: 'reordered' }), T, () => true)).toEqual({ ...pending, hold: 'reordered' });
    expect(refusal(() => retried(delivery({ status: 'discarded' }), T, () => false))).toEqual({
      code: 'invalid_state_transition',
      detail: 'delivery d1 was discarded when its webhook was deleted',
    });
    expect(refusal(() => retried(delivery({ status: 'delivered' }), T, () => true))).toEqual({
      code: 'invalid_state_transition',
      detail: 'delivery d1 was delivered; to send its event again, resend it (POST /_sandbox/events/e1/resend)',
    });
  });

  it('retry asks whether the webhook exists only for a discarded delivery', () => {
    let asked = 0;
    retried(delivery({ hold: 'delayed' }), T, () => (asked++, false));
    expect(asked).toBe(0);
  });

  it('exhaust discards a delivery that was not delivered, hold and schedule gone', () => {
    const discarded = { status: 'discarded', nextAttemptAt: null, pausedDueAt: null, hold: null, updatedAt: T };
    expect(exhausted(delivery({ hold: 'holding' }), T)).toEqual(discarded);
    expect(exhausted(delivery({ status: 'discarded' }), T)).toEqual(discarded);
    expect(refusal(() => exhausted(delivery({ status: 'delivered' }), T))).toEqual({
      code: 'invalid_state_transition',
      detail: 'delivery d1 was delivered already',
    });
  });
});
