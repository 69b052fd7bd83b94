import { describe, expect, it } from 'vitest';
import { seededRandom } from '../kernel/ids.js';
import { expirationDate, expiresAt, generatePan, luhnCheckDigit, maskPan } from './pan.js';

const isLuhnValid = (pan: string) => luhnCheckDigit(pan.slice(0, -1)) === Number(pan.at(-1));

describe('Luhn', () => {
  it('computes the check digit of known numbers', () => {
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(isLuhnValid('4111111111111111')).toBe(true);
    expect(isLuhnValid('5555555555554444')).toBe(true);
    expect(isLuhnValid('4111111111111112')).toBe(false);
  });
});

describe('generatePan', () => {
  const random = seededRandom(7);
  const bytes = (n: number) => random.bytes(n);

  it('makes 16-digit Luhn-valid numbers on the network BIN', () => {
    for (let i = 0; i < 50; i++) {
      const visa = generatePan('visa', bytes);
      const mastercard = generatePan('mastercard', bytes);
      expect(visa).toMatch(/^4\d{15}$/);
      expect(mastercard).toMatch(/^5[1-5]\d{14}$/);
      expect(isLuhnValid(visa) && isLuhnValid(mastercard)).toBe(true);
    }
  });

  it('is masked to the first six, six asterisks and the last four', () => {
    expect(maskPan('4319401234567890')).toBe('431940******7890');
  });
});

describe('expiry', () => {
  it('is the issue month three years on, as MM/YYYY', () => {
    expect(expirationDate(Date.parse('2026-03-01T09:00:00Z'))).toBe('03/2029');
    expect(expirationDate(Date.parse('2026-12-31T23:59:59Z'))).toBe('12/2029');
  });

  it('never expires past December 9999, the end of the range of time', () => {
    expect(expirationDate(Date.parse('9997-06-01T00:00:00Z'))).toBe('12/9999');
    expect(expiresAt('12/9999')).toBe(Date.parse('9999-12-31T23:59:59.999Z'));
  });

  it('ends when the expiry month ends (UTC)', () => {
    expect(expiresAt('03/2029')).toBe(Date.parse('2029-04-01T00:00:00Z'));
    expect(expiresAt('12/2029')).toBe(Date.parse('2030-01-01T00:00:00Z'));
  });
});
