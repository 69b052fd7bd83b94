/** The rows of a long list that are drawn (ui/window.ts). */
import { describe, expect, it } from 'vitest';
import { rowWindow, scrollFor } from './window.js';

describe('rowWindow', () => {
  it('draws the rows in view and a few either side, never past the ends', () => {
    expect(rowWindow(0, 340, 34, 1000, 8)).toEqual({ start: 0, end: 19 });
    expect(rowWindow(34 * 500, 340, 34, 1000, 8)).toEqual({ start: 492, end: 519 });
    expect(rowWindow(34 * 995, 340, 34, 1000, 8)).toEqual({ start: 987, end: 1000 });
    expect(rowWindow(0, 0, 34, 3)).toEqual({ start: 0, end: 3 });
    expect(rowWindow(-50, 340, 34, 0)).toEqual({ start: 0, end: 0 });
  });

  it('draws the same number of rows wherever the list is scrolled', () => {
    for (const top of [0, 3_000, 17_000, 33_000]) {
      const { start, end } = rowWindow(top, 680, 34, 100_000);
      expect(end - start).toBeLessThanOrEqual(21 + 16 + 1);
    }
  });
});

describe('scrollFor', () => {
  it('scrolls just enough to show a row above or below the view, and not at all for one in view', () => {
    expect(scrollFor(5, 340, 340, 34)).toBe(170);
    expect(scrollFor(25, 340, 340, 34)).toBe(34 * 26 - 340);
    expect(scrollFor(12, 340, 340, 34)).toBe(340);
  });
});
