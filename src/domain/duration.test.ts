/** Duration parsing for `clock advance` and `--token-ttl`: ISO 8601 and shorthand, junk refused. */
import { describe, expect, it } from 'vitest';
import { addCalendar, CALENDAR_DURATION_PATTERN, durationMistake, parseCalendarDuration, parseDuration } from './duration.js';

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
    ['1d12h', D + 12 * H],
    ['1h30m', H + 30 * 60 * S],
    ['2m30s', 150 * S],
    ['1s500ms', 1500],
    ['1m', 60 * S],
  ])('%j → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    '',
    'P',
    'PT',
    'P1DT',
    'P1M',
    'P1Y',
    '-5s',
    '-PT1H',
    'PT-1H',
    '5',
    'h',
    '1e3s',
    '10 s',
    '5x',
    'PT1H ago',
    'soon',
    '1M',
    '25H',
    '30m1h',
    '1h1h',
    '1mo',
    '1y',
    '1h 30m',
  ])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('calendar durations', () => {
  const at = (text: string) => new Date(Date.parse(text));
  const plus = (from: string, by: string) => new Date(addCalendar(Date.parse(from), parseCalendarDuration(by)!)).toISOString();

  it('reads years and months, ISO 8601 and shorthand, besides every fixed duration', () => {
    expect(parseCalendarDuration('P3Y')).toEqual({ years: 3, months: 0, ms: 0 });
    expect(parseCalendarDuration('P1M')).toEqual({ years: 0, months: 1, ms: 0 });
    expect(parseCalendarDuration('P1Y2M3DT4H')).toEqual({ years: 1, months: 2, ms: 3 * 86_400_000 + 4 * 3_600_000 });
    expect(parseCalendarDuration('1y')).toEqual({ years: 1, months: 0, ms: 0 });
    expect(parseCalendarDuration('18mo')).toEqual({ years: 0, months: 18, ms: 0 });
    expect(parseCalendarDuration('PT1M')).toEqual({ years: 0, months: 0, ms: 60_000 });
    expect(parseCalendarDuration('25h')).toEqual({ years: 0, months: 0, ms: 90_000_000 });
    expect(parseCalendarDuration('1y6mo')).toEqual({ years: 1, months: 6, ms: 0 });
    expect(parseCalendarDuration('1mo15d')).toEqual({ years: 0, months: 1, ms: 15 * 86_400_000 });
    expect(parseCalendarDuration('1m')).toEqual({ years: 0, months: 0, ms: 60_000 });
    for (const bad of ['P', 'P1.5Y', 'PY', '1yr', '-1y', 'P1MT', 'soon', '', '1M', '1.5mo', '1d1y', '1Y'])
      expect(parseCalendarDuration(bad), bad).toBeUndefined();
  });

  it('says why 1M is refused, and that units are lowercase', () => {
    expect(durationMistake('1M')).toBe('"1M" is ambiguous: write 1m for minutes or 1mo for months');
    expect(durationMistake('25H')).toBe('shorthand units are lowercase: 25h');
    expect(durationMistake('1D12H')).toBe('shorthand units are lowercase: 1d12h');
    for (const fine of ['PT1M', 'P1M', '1m', 'soon']) expect(durationMistake(fine), fine).toBeUndefined();
  });

  it("states in the documents' pattern what it reads, compound shorthand included", () => {
    const pattern = new RegExp(CALENDAR_DURATION_PATTERN);
    for (const read of ['1d12h', '1y6mo', '1mo15d', '2m30s', '1s500ms', ' 90s ', '1.5h', 'PT25H', 'p1m', 'P1Y2M3DT4H']) {
      expect(pattern.test(read), read).toBe(true);
      expect(parseCalendarDuration(read), read).toBeDefined();
    }
    for (const refused of ['1M', '25H', '1Y', '30m1h', '1h1h', '1.5mo', '1d1y', '1h 30m', '5', 'mo', '']) {
      expect(pattern.test(refused), refused).toBe(false);
      expect(parseCalendarDuration(refused), refused).toBeUndefined();
    }
  });

  it('adds them on the calendar in UTC, a missing day becoming the last of the month', () => {
    expect(plus('2026-01-31T10:00:00.000Z', 'P1M')).toBe('2026-02-28T10:00:00.000Z');
    expect(plus('2028-01-31T10:00:00.000Z', '1mo')).toBe('2028-02-29T10:00:00.000Z');
    expect(plus('2028-02-29T00:00:00.000Z', 'P1Y')).toBe('2029-02-28T00:00:00.000Z');
    expect(plus('2026-11-30T23:59:59.999Z', 'P3M')).toBe('2027-02-28T23:59:59.999Z');
    expect(plus('2026-03-15T08:00:00.000Z', 'P1Y2M3DT4H')).toBe('2027-05-18T12:00:00.000Z');
    expect(plus('2026-12-01T00:00:00.000Z', '13mo')).toBe('2028-01-01T00:00:00.000Z');
    expect(addCalendar(at('2026-01-01T00:00:00Z').getTime(), { years: 0, months: 0, ms: 5 })).toBe(Date.parse('2026-01-01T00:00:00.005Z'));
  });
});
