/** Duration parsing for `clock advance` and `--token-ttl`: ISO 8601 and shorthand, junk refused. */
import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';

const S = 1000;
const H = 3_600_000;
const D = 86_400_000;

describe('parseDuration', () => {
  it.each([
    ['PT25H', 25 * H],
    ['P30D', 30 * D],
    ['P1DT2H30M', D + 2 * H + 30 * 60 * S],
    ['PT0.5S', 500],
    ['PT90S', 90 * S],
    ['P2W', 14 * D],
    ['pt1h', H],
    ['90s', 90 * S],
    ['25h', 25 * H],
    ['30d', 30 * D],
    ['15m', 15 * 60 * S],
    ['500ms', 500],
    ['1.5h', 1.5 * H],
    ['2w', 14 * D],
    [' 10s ', 10 * S],
    ['0s', 0],
  ])('%j → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'P', 'PT', 'P1DT', 'P1M', 'P1Y', '-5s', '-PT1H', 'PT-1H', '5', 'h', '1e3s', '10 s', '5x', '1h30m', 'PT1H ago', 'soon'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
