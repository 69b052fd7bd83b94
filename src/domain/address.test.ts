import { describe, expect, it } from 'vitest';
import { isCountryCode, orderAddress } from './address.js';

describe('addresses', () => {
  it('accept assigned ISO 3166-1 alpha-2 codes only, in capitals', () => {
    for (const code of ['GB', 'DE', 'US', 'AX', 'SS']) expect(isCountryCode(code)).toBe(true);
    for (const code of ['UK', 'XX', 'gb', 'GBR', '']) expect(isCountryCode(code)).toBe(false);
  });

  it('put fields in wire order and leave out absent optional ones', () => {
    const ordered = orderAddress({ postCode: 'N1', country: 'GB', state: 'LDN', city: 'London', firstLine: '1 Road' });
    expect(Object.keys(ordered)).toEqual(['firstLine', 'city', 'state', 'country', 'postCode']);
  });
});
