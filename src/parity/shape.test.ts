import { describe, expect, test } from 'vitest';
import { comparedByValue, describe as describeValue, errorCodeOf, formatOf, identityOf, mediaType, typeOf } from './shape.js';

// What parity sets aside and what it keeps of a value (docs/parity.md: What is set aside).
describe('formatOf', () => {
  test.each([
    ['6a0c2d4e-1f3b-4c5d-8e9f-0a1b2c3d4e5f', 'uuid'],
    ['6A0C2D4E-1F3B-4C5D-8E9F-0A1B2C3D4E5F', 'uuid'],
    ['2026-11-22T10:00:00.123Z', 'date-time'],
    ['2026-11-22T10:00:00+01:00', 'date-time'],
    ['2026-11-22', 'date'],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl', 'jwt'],
    ['eip155:11155111/erc20:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', 'caip-19'],
    ['eip155:11155111:0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc', 'caip-10'],
    ['eip155:300', 'caip-2'],
    ['https://parity-1a2b3c4d.invalid/webhooks/1', 'url'],
    ['431940******1234', 'masked-pan'],
    ['11/2029', 'month-year'],
    ['12.5', 'decimal'],
    ['20', 'decimal'],
    ['0xdeadbeef', 'hex'],
    ['LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0K', 'base64'],
    ['active', 'word'],
    ['EUR', 'word'],
    ['card.updated', 'word'],
    ['issue_failed', 'word'],
    ['Test Merchant', 'text'],
    ['', 'text'],
  ])('%s is %s', (value, format) => {
    expect(formatOf(value)).toBe(format);
  });

  test('a long word of letters alone is a word, not base64', () => {
    expect(formatOf('AuthorisationNotPendingAtAll')).toBe('word');
  });
});

test('typeOf and describe name the JSON type, and a string by its format', () => {
  expect([null, true, 1.5, 'x', [], {}].map(typeOf)).toEqual(['null', 'boolean', 'number', 'string', 'array', 'object']);
  expect(describeValue('2026-11-22T10:00:00.123Z')).toBe('string (date-time)');
  expect(describeValue(3)).toBe('number');
});

test('ids, times, tokens, challenges, signatures, prose and the error code are never compared by value', () => {
  for (const key of [
    'id',
    'cardId',
    'externalId',
    'token',
    'challenge',
    'signature',
    'key',
    'requestId',
    'detail',
    'title',
    'message',
    'name',
    'createdAt',
    'code',
  ])
    expect(comparedByValue(key), key).toBe(false);
  for (const key of ['status', 'type', 'currency', 'network', 'types', 'tokenType', 'capture']) expect(comparedByValue(key), key).toBe(true);
  expect(comparedByValue(undefined)).toBe(true);
});

test('identityOf: a list item is known by its id, else its path', () => {
  expect(identityOf({ id: 'eip155:300', name: 'zkSync' })).toBe('eip155:300');
  expect(identityOf({ path: 'chainId', message: 'x' })).toBe('chainId');
  expect(identityOf({ amount: '1' })).toBeUndefined();
  expect(identityOf('EUR')).toBeUndefined();
});

test('mediaType drops the parameters and the case', () => {
  expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
  expect(mediaType(null)).toBe('');
});

test("errorCodeOf reads an RFC 9457 problem's code, or an error field's", () => {
  expect(errorCodeOf({ type: 'x', code: 'card_not_found' })).toBe('card_not_found');
  expect(errorCodeOf({ error: 'not_found' })).toBe('not_found');
  expect(errorCodeOf({ error: { code: 'bad', message: 'x' } })).toBe('bad');
  expect(errorCodeOf({ message: 'x' })).toBeUndefined();
  expect(errorCodeOf('text')).toBeUndefined();
});
