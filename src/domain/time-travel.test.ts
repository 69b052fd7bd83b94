/** advanceTarget: how far one advance may move the clock (docs/control-plane.md: Time travel and the control plane). */
import { describe, expect, it } from 'vitest';
import { SandboxError } from './errors.js';
import { MAX_INSTANT } from './instant.js';
import { advanceTarget } from './time-travel.js';

const NOW = Date.parse('2026-03-01T09:00:00.000Z');
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof SandboxError ? `${error.code} ${error.errors?.[0]?.path}: ${error.errors?.[0]?.message}` : String(error);
  }
  return 'accepted';
};

describe('advanceTarget', () => {
  it('refuses a count of years, months, days or seconds too large for any date with a 400, not an instant that is not a number', () => {
    for (const by of [
      '99999999999y',
      '9999999999999mo',
      'P99999999999Y',
      'P0809278106.782DT0249M07013814.176S',
      ' 7667541532.3013d\n',
      '99999999999999999s',
      'P8326230974DT492575458295S',
      '9872830y11872397w96889751909.08h',
    ])
      expect(
        refusal(() => advanceTarget({ by }, NOW)),
        by,
      ).toMatch(/^invalid_request by: must be at most 100 years/);
  });

  it('never moves the clock past the last instant an RFC 3339 timestamp can write', () => {
    const near = Date.parse('9999-06-01T00:00:00.000Z');
    expect(refusal(() => advanceTarget({ by: '1y' }, near))).toMatch(/^invalid_request by: must not move the clock past 9999-12-31T23:59:59.999Z/);
    expect(refusal(() => advanceTarget({ to: '10000-01-01T00:00:00Z' }, near))).toMatch(/^invalid_request to:/);
    expect(advanceTarget({ by: '6mo' }, near)).toBeLessThanOrEqual(MAX_INSTANT);
    expect(advanceTarget({ to: '9999-12-31T23:59:59.999Z' }, near)).toBe(MAX_INSTANT);
  });

  it('reads `to` as the pattern the document states: each field in its range, 24:00 as the next midnight', () => {
    expect(advanceTarget({ to: '2026-03-01T24:00Z' }, NOW)).toBe(Date.parse('2026-03-02T00:00:00.000Z'));
    expect(refusal(() => advanceTarget({ to: '2026-13-01T00:00Z' }, NOW))).toMatch(/^invalid_request to: must be an RFC 3339 instant/);
    expect(advanceTarget({ to: '2026-03-02t00:00z' }, NOW)).toBe(Date.parse('2026-03-02T00:00:00.000Z'));
  });
});
