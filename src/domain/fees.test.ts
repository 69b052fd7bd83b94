import { describe, expect, it } from 'vitest';
import { feeProblem, feesFor, normaliseFee, settledTokenAmount } from './fees.js';

describe('feeProblem', () => {
  it('takes a percentage or a fixed token amount', () => {
    for (const spec of ['0.5%', '100%', '0.0125%', '2%', '0.10', '3', '0.01']) expect(feeProblem(spec, 2), spec).toBeUndefined();
  });

  it('refuses zero, more than 100%, too many digits and anything else, saying why', () => {
    expect(feeProblem('0%', 2)).toMatch(/more than 0%/);
    expect(feeProblem('0', 2)).toMatch(/more than 0/);
    expect(feeProblem('100.5%', 2)).toMatch(/at most 100%/);
    expect(feeProblem('0.00001%', 2)).toMatch(/at most 4 fraction digits/);
    expect(feeProblem('0.001', 2)).toMatch(/at most 2 fraction digits/);
    expect(feeProblem('0.100', 2)).toBeUndefined();
    for (const junk of ['-1', '1e2', '%', '0.5 %', 'abc', '']) expect(feeProblem(junk, 2), junk).toMatch(/must be a percentage/);
  });
});

describe('feesFor', () => {
  it('computes a percentage exactly, rounded half-even to the minor unit, and carries a fixed fee as set', () => {
    expect(feesFor({ partner: '0.5%', service: '0.10', network: '1.25%' }, '11.5', 2)).toEqual([
      { type: 'partner', tokenAmount: '0.06' },
      { type: 'service', tokenAmount: '0.1' },
      { type: 'network', tokenAmount: '0.14' },
    ]);
    // 0.5% of 12.5 is 0.0625: half-even to 0.06; of 13 is 0.065: to 0.06 as well; of 13.1 is 0.0655: to 0.07.
    expect(feesFor({ partner: '0.5%' }, '12.5', 2)[0]!.tokenAmount).toBe('0.06');
    expect(feesFor({ partner: '0.5%' }, '13', 2)[0]!.tokenAmount).toBe('0.06');
    expect(feesFor({ partner: '0.5%' }, '13.1', 2)[0]!.tokenAmount).toBe('0.07');
  });

  it('charges nothing when nothing is set, and only the types that are', () => {
    expect(feesFor({}, '10', 2)).toEqual([]);
    expect(feesFor({ network: '2%' }, '10', 2)).toEqual([{ type: 'network', tokenAmount: '0.2' }]);
  });

  it('writes a fee in its normal form', () => {
    expect(normaliseFee('0.50%')).toBe('0.5%');
    expect(normaliseFee('0.10')).toBe('0.1');
  });
});

describe('settledTokenAmount', () => {
  const fees = [
    { type: 'partner' as const, tokenAmount: '0.06' },
    { type: 'service' as const, tokenAmount: '0.1' },
  ];

  it('is what leaves on a debit: its amount and its fees', () => {
    expect(settledTokenAmount('debit', '11.5', fees)).toBe('11.66');
    expect(settledTokenAmount('debit', '11.5', [])).toBe('11.5');
  });

  it('is what arrives on a credit: its amount less its fees, never nothing or less', () => {
    expect(settledTokenAmount('credit', '11.5', fees)).toBe('11.34');
    expect(settledTokenAmount('credit', '0.16', fees)).toBeUndefined();
    expect(settledTokenAmount('credit', '0.17', fees)).toBe('0.01');
  });
});
