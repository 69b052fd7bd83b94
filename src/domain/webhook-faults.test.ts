import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration.js';
import { faultsView, hasFaults, parseDelay, parseFaultsSpec } from './webhook-faults.js';

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
