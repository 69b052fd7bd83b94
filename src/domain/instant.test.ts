/** `iso` keeps its last two answers: every instant still gets its own, an invalid one still throws. */
import { describe, expect, it } from 'vitest';
import { iso } from './instant.js';

describe('iso', () => {
  it('formats each instant as its own, asked in any order and again', () => {
    const a = Date.UTC(2026, 2, 1, 9, 0, 0, 5);
    const b = a + 1;
    const c = b + 3_600_000;
    for (const t of [a, a, b, a, b, b, c, a, c, b, a, c, c]) expect(iso(t)).toBe(new Date(t).toISOString());
    expect(iso(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('refuses an instant that is not a time, every time', () => {
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(iso(86_400_000)).toBe('1970-01-02T00:00:00.000Z');
  });
});
