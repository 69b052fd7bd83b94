import { describe, expect, it } from 'vitest';
import { exchangeRate, type RateTable } from './money.js';
import { movedRatesProblems, movedTable, normaliseMoved } from './rates.js';

const TABLE: RateTable = { base: 'USD', rates: { USD: '1', EUR: '0.92', GBP: '0.785', JPY: '149.5' } };

describe('moved rates', () => {
  it('takes a rate more than 0 for any currency of the table but its base', () => {
    expect(movedRatesProblems({ EUR: '0.95', JPY: '151.25' }, TABLE)).toEqual([]);
  });

  it('names each bad currency and why', () => {
    expect(movedRatesProblems({ XYZ: '1', USD: '2', EUR: '0', GBP: '-1', JPY: 150 }, TABLE)).toEqual([
      { path: 'XYZ', message: expect.stringMatching(/^not a currency of the rate table; its currencies: USD, EUR/) },
      { path: 'USD', message: 'USD is the base of the rate table: its rate is 1 by definition' },
      { path: 'EUR', message: 'must be more than 0' },
      { path: 'GBP', message: 'must be a decimal string in plain notation such as "0.95", got "-1"' },
      { path: 'JPY', message: 'must be a decimal string such as "0.95"' },
    ]);
    expect(movedRatesProblems({ EUR: '1e3' }, TABLE)[0]?.message).toMatch(/plain notation/);
    expect(movedRatesProblems({ EUR: '0.12345678901' }, TABLE)[0]?.message).toMatch(/at most 10 significant digits/);
  });

  it('moves the pair rates of the currencies moved, and nothing moved is the table', () => {
    const moved = movedTable(TABLE, normaliseMoved({ EUR: '0.950' }, TABLE));
    expect(exchangeRate(moved, 'USD', 'EUR')?.toString()).toBe('0.95');
    expect(exchangeRate(moved, 'GBP', 'EUR')?.toString()).toBe(exchangeRate({ ...TABLE, rates: { ...TABLE.rates, EUR: '0.95' } }, 'GBP', 'EUR')?.toString());
    expect(exchangeRate(moved, 'USD', 'GBP')?.toString()).toBe('0.785');
    expect(movedTable(TABLE, {})).toBe(TABLE);
  });
});
