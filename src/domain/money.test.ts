import { describe, expect, it } from 'vitest';
import { loadMoneyTables } from '../services/engine.js';
import { amountProblems, convert, exchangeRate, MAX_INTEGER_DIGITS, normalise, type MoneyTables } from './money.js';

const tables = loadMoneyTables();
const { currencies } = tables;

describe('normalise', () => {
  it.each([
    ['20.0', '20'],
    ['1.50', '1.5'],
    ['0.10', '0.1'],
    ['007.25', '7.25'],
    ['100', '100'],
    ['0.00000001', '0.00000001'],
    ['123456789012345678.1234', '123456789012345678.1234'],
  ])('%s → %s, never in exponent notation', (input, output) => {
    expect(normalise(input)).toBe(output);
  });
});

describe('the shipped ISO 4217 table', () => {
  it('gives each currency its minor-unit digits', () => {
    expect(currencies.JPY).toBe(0);
    expect(currencies.EUR).toBe(2);
    expect(currencies.USD).toBe(2);
    expect(currencies.KWD).toBe(3);
    expect(currencies.CLF).toBe(4);
  });

  it('holds the active list and leaves out withdrawn codes and codes without a minor unit', () => {
    expect(Object.keys(currencies).length).toBeGreaterThan(150);
    for (const withdrawn of ['DEM', 'HRK', 'XAU', 'XXX']) expect(currencies[withdrawn]).toBeUndefined();
    for (const code of Object.keys(currencies)) expect(code).toMatch(/^[A-Z]{3}$/);
  });
});

describe('the shipped rate table', () => {
  const codes = Object.keys(tables.rates.rates);

  it('covers at least EUR, USD, GBP, JPY and CHF, all ISO 4217 currencies, with the base at 1', () => {
    expect(codes).toEqual(expect.arrayContaining(['EUR', 'USD', 'GBP', 'JPY', 'CHF']));
    for (const code of codes) expect(currencies[code]).toBeDefined();
    expect(tables.rates.rates[tables.rates.base]).toBe('1');
  });

  it('is consistent: there and back again, and across three currencies, agree to the rates’ precision', () => {
    for (const a of codes) {
      for (const b of codes) {
        const roundTrip = exchangeRate(tables.rates, a, b)!.times(exchangeRate(tables.rates, b, a)!);
        expect(roundTrip.minus(1).abs().toNumber()).toBeLessThan(2e-9);
        for (const c of ['EUR', 'GBP', 'JPY']) {
          const direct = exchangeRate(tables.rates, a, b)!;
          const via = exchangeRate(tables.rates, a, c)!.times(exchangeRate(tables.rates, c, b)!);
          expect(via.div(direct).minus(1).abs().toNumber()).toBeLessThan(2e-9);
        }
      }
    }
  });
});

describe('amountProblems', () => {
  const problems = (amount: unknown, currency: unknown) => amountProblems(amount, currency, currencies);

  it.each([
    ['12.5', 'EUR'],
    ['12.50', 'EUR'],
    ['0.01', 'EUR'],
    ['1000', 'JPY'],
    ['20.0', 'JPY'],
    ['1.234', 'KWD'],
    ['1.2345', 'CLF'],
    ['9'.repeat(MAX_INTEGER_DIGITS), 'USD'],
  ])('accepts %s %s', (amount, currency) => {
    expect(problems(amount, currency)).toEqual([]);
  });

  it.each([
    ['0', /greater than 0/],
    ['0.00', /greater than 0/],
    ['-1', /plain notation/],
    ['+1', /plain notation/],
    ['abc', /plain notation/],
    ['1e3', /plain notation/],
    ['.5', /plain notation/],
    ['5.', /plain notation/],
    [' 5', /plain notation/],
    ['1,5', /plain notation/],
    ['', /plain notation/],
    ['1'.repeat(MAX_INTEGER_DIGITS + 1), /at most 18 digits/],
    ['1.234', /EUR allows at most 2 fraction digits/],
  ])('refuses %j in EUR, naming amount', (amount, message) => {
    const found = problems(amount, 'EUR');
    expect(found).toHaveLength(1);
    expect(found[0]!.path).toBe('amount');
    expect(found[0]!.message).toMatch(message);
  });

  it('counts fraction digits against the currency: none for JPY, three for KWD', () => {
    expect(problems('1.5', 'JPY')).toEqual([{ path: 'amount', message: expect.stringMatching(/JPY has no minor unit/) }]);
    expect(problems('1.2345', 'KWD')).toEqual([{ path: 'amount', message: expect.stringMatching(/KWD allows at most 3 fraction digits/) }]);
  });

  it('refuses a currency outside the ISO 4217 table, hinting at upper case when that is the fault', () => {
    expect(problems('1', 'XYZ')).toEqual([{ path: 'currency', message: expect.stringMatching(/"XYZ" is not an ISO 4217/) }]);
    expect(problems('1', 'eur')).toEqual([{ path: 'currency', message: expect.stringMatching(/upper case: "EUR"/) }]);
    expect(problems('1', '__proto__')).toHaveLength(1);
  });

  it('names both fields when both are bad, and leaves values of the wrong type to the schema', () => {
    expect(problems('abc', 'XYZ').map((p) => p.path)).toEqual(['currency', 'amount']);
    expect(problems(10, 'EUR')).toEqual([]);
    expect(problems('1', 978)).toEqual([]);
  });
});

describe('convert', () => {
  it('keeps the amount and reports rate 1 in the same currency', () => {
    expect(convert(tables, '12.5', 'EUR', 'EUR')).toEqual({ amount: '12.5', exchangeRate: '1' });
  });

  it.each([
    // from, amount, to, exchangeRate, amount: rates[to] / rates[from] at 10 significant digits, times the amount, half-even
    ['USD', '20.0', 'EUR', '0.92', '18.4'],
    ['EUR', '100', 'USD', '1.086956522', '108.7'],
    ['GBP', '50', 'EUR', '1.171974522', '58.6'],
    ['CHF', '10', 'GBP', '0.8920454545', '8.92'],
    ['JPY', '1000', 'EUR', '0.006153846154', '6.15'],
    ['JPY', '81', 'EUR', '0.006153846154', '0.5'],
    ['KWD', '1.234', 'USD', '3.25732899', '4.02'],
    ['USD', '1234.56', 'JPY', '149.5', '184567'],
  ])('%s %s → %s at %s = %s', (from, amount, to, rate, converted) => {
    expect(convert(tables, amount, from, to)).toEqual({ amount: converted, exchangeRate: rate });
  });

  it('rounds a tie at the minor unit half-even: down to an even digit, up from an odd one', () => {
    // USD → GBP is 0.785: 1 USD = 0.785 GBP exactly, 3 USD = 2.355 GBP exactly.
    expect(convert(tables, '1', 'USD', 'GBP')!.amount).toBe('0.78');
    expect(convert(tables, '3', 'USD', 'GBP')!.amount).toBe('2.36');
    // Zero digits (JPY, 149.5 per USD): 149.5 → 150, 448.5 → 448.
    expect(convert(tables, '1', 'USD', 'JPY')!.amount).toBe('150');
    expect(convert(tables, '3', 'USD', 'JPY')!.amount).toBe('448');
    // Three digits (KWD, 0.307 per USD): 0.1535 → 0.154, 0.4605 → 0.46.
    expect(convert(tables, '0.5', 'USD', 'KWD')!.amount).toBe('0.154');
    expect(convert(tables, '1.5', 'USD', 'KWD')!.amount).toBe('0.46');
  });

  it('is exact where binary floating point is not', () => {
    const table: MoneyTables = { currencies: { AAA: 2, BBB: 2 }, rates: { base: 'AAA', rates: { AAA: '1', BBB: '1.1' } } };
    // 1.15 × 1.1 = 1.265 exactly, a tie that rounds to the even 1.26; a float gives 1.2649999….
    expect(convert(table, '1.15', 'AAA', 'BBB')!.amount).toBe('1.26');
    expect(convert(table, '1.25', 'AAA', 'BBB')!.amount).toBe('1.38');
    expect(convert(table, '123456789012345678.99', 'AAA', 'BBB')!.amount).toBe('135802467913580246.89');
  });

  it('has no answer for a currency without a rate', () => {
    expect(convert(tables, '1', 'THB', 'EUR')).toBeUndefined();
    expect(exchangeRate(tables.rates, 'EUR', 'THB')).toBeUndefined();
  });
});
