import { describe, expect, test } from 'vitest';
import { compareAnswers, type Answer } from './compare.js';

// How two answers to the same step are compared (docs/parity.md: Reading a difference): each kind
// found where it is, and what differs on every run never reported.
const ids = {
  up: { card1: '11111111-1111-4111-8111-111111111111', card2: '22222222-2222-4222-8222-222222222222', theirs: '99999999-9999-4999-8999-999999999999' },
  local: { card1: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', card2: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb' },
};
const labelsOf = (side: Record<string, string>) => {
  const byId = new Map(Object.entries(side).map(([label, id]) => [id, label === 'theirs' ? undefined : label.replace('card', 'card-')]));
  return (id: string) => byId.get(id);
};
const labels = { upstream: labelsOf(ids.up), local: labelsOf(ids.local) };
const json = (status: number, body: unknown, contentType = 'application/json'): Answer => ({ status, contentType, body });
const card = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  status: 'active',
  type: 'virtual',
  maskedPan: '431940******1234',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('compareAnswers', () => {
  test('the same answer but for ids, times, PANs and tokens: no difference', () => {
    const up = json(200, { ...card(ids.up.card1), maskedPan: '536127******9876', createdAt: '2027-05-05T12:00:00Z', token: 'eyJa.eyJb.c' });
    const local = json(200, { ...card(ids.local.card1), token: 'eyJx.eyJy.z' }, 'application/json; charset=utf-8');
    expect(compareAnswers(up, local, labels)).toEqual([]);
  });

  test('status, and then the bodies of a success and a refusal are not compared', () => {
    expect(compareAnswers(json(200, card(ids.up.card1)), json(409, { code: 'invalid_state_transition' }, 'application/problem+json'), labels)).toEqual([
      { kind: 'status', where: 'status', upstream: 200, local: 409 },
      { kind: 'content-type', where: 'content-type', upstream: 'application/json', local: 'application/problem+json' },
    ]);
  });

  test('error-code between two refusals, and the rest of the problem compared by shape', () => {
    const up = json(404, { title: 'Not found', code: 'not_found', requestId: 'req_1' }, 'application/problem+json');
    const local = json(404, { title: 'Card not found', code: 'card_not_found', requestId: ids.local.card1, status: 404 }, 'application/problem+json');
    expect(compareAnswers(up, local, labels)).toEqual([
      { kind: 'error-code', where: 'body.code', upstream: 'not_found', local: 'card_not_found' },
      { kind: 'type', where: 'body.requestId', upstream: 'string (word)', local: 'string (uuid)' },
      { kind: 'extra-field', where: 'body.status', upstream: null, local: 'number' },
    ]);
  });

  test("missing-field and extra-field are the sandbox's side, at any depth", () => {
    const up = json(200, { ...card(ids.up.card1), merchant: { id: 'M', city: 'Paris' }, network: 'visa' });
    const local = json(200, { ...card(ids.local.card1), merchant: { id: 'M' }, nickname: 'x' });
    expect(compareAnswers(up, local, labels)).toEqual([
      { kind: 'missing-field', where: 'body.merchant.city', upstream: 'string (word)', local: null },
      { kind: 'missing-field', where: 'body.network', upstream: 'string (word)', local: null },
      { kind: 'extra-field', where: 'body.nickname', upstream: null, local: 'string (word)' },
    ]);
  });

  test('type: another JSON type, or another format of string', () => {
    const up = json(200, { amount: 12.5, expiresAt: 1767229200, createdAt: '2026-01-01' });
    const local = json(200, { amount: '12.5', expiresAt: '1767229200', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(compareAnswers(up, local, labels)).toEqual([
      { kind: 'type', where: 'body.amount', upstream: 'number', local: 'string (decimal)' },
      { kind: 'type', where: 'body.expiresAt', upstream: 'number', local: 'string (decimal)' },
      { kind: 'type', where: 'body.createdAt', upstream: 'string (date)', local: 'string (date-time)' },
    ]);
  });

  test('enum-value: a word or a boolean that differs, in objects and in lists of words', () => {
    const up = json(200, { status: 'ACTIVE', types: ['card.updated', 'customer.updated'], capture: true, currency: 'EUR' });
    const local = json(200, { status: 'active', types: ['card.updated', 'account.updated'], capture: false, currency: 'EUR' });
    expect(compareAnswers(up, local, labels)).toEqual([
      { kind: 'enum-value', where: 'body.status', upstream: 'ACTIVE', local: 'active' },
      { kind: 'enum-value', where: 'body.types[1]', upstream: 'customer.updated', local: 'account.updated' },
      { kind: 'enum-value', where: 'body.capture', upstream: true, local: false },
    ]);
  });

  test('a word against prose is an enum-value; prose against prose is nothing', () => {
    expect(compareAnswers(json(200, { status: 'on hold' }), json(200, { status: 'pending' }), labels)).toEqual([
      { kind: 'enum-value', where: 'body.status', upstream: 'on hold', local: 'pending' },
    ]);
    expect(compareAnswers(json(200, { city: 'New York' }), json(200, { city: 'San Francisco' }), labels)).toEqual([]);
  });
});

describe('lists', () => {
  test("items pair by their labelled ids, whatever each side's ids; what the account held before is left out", () => {
    const up = json(200, [card(ids.up.theirs), card(ids.up.card1), card(ids.up.card2, { status: 'inactive' })]);
    const local = json(200, [card(ids.local.card1), card(ids.local.card2, { status: 'terminated' })]);
    expect(compareAnswers(up, local, labels)).toEqual([{ kind: 'enum-value', where: 'body[<card-2>].status', upstream: 'inactive', local: 'terminated' }]);
  });

  test('order: the same items in another order', () => {
    const up = json(200, [card(ids.up.card2), card(ids.up.card1)]);
    const local = json(200, [card(ids.local.card1), card(ids.local.card2)]);
    expect(compareAnswers(up, local, labels)).toEqual([{ kind: 'order', where: 'body', upstream: ['<card-2>', '<card-1>'], local: ['<card-1>', '<card-2>'] }]);
  });

  test('an item on one side only is a missing or extra item', () => {
    expect(compareAnswers(json(200, [card(ids.up.card1)]), json(200, [card(ids.local.card1), card(ids.local.card2)]), labels)).toEqual([
      { kind: 'extra-field', where: 'body[<card-2>]', upstream: null, local: 'object' },
    ]);
    expect(compareAnswers(json(200, [{ id: 'eip155:300' }, { id: 'eip155:1' }]), json(200, [{ id: 'eip155:300' }]), labels)).toEqual([
      { kind: 'missing-field', where: 'body[eip155:1]', upstream: 'object', local: null },
    ]);
  });

  test('a list that held only what was there before is empty', () => {
    expect(compareAnswers(json(200, [card(ids.up.theirs)]), json(200, []), labels)).toEqual([]);
  });

  test('items without identity pair by position', () => {
    expect(compareAnswers(json(200, { fees: [{ amount: '1' }] }), json(200, { fees: [] }), labels)).toEqual([
      { kind: 'missing-field', where: 'body.fees[0]', upstream: 'object', local: null },
    ]);
  });
});

describe('answers that are not there', () => {
  test('not run on one side: a status difference saying why', () => {
    expect(compareAnswers({ none: 'not run: no card-2' }, json(200, {}), labels)).toEqual([
      { kind: 'status', where: 'status', upstream: 'not run: no card-2', local: 200 },
    ]);
  });

  test('not run on either side: nothing to compare', () => {
    expect(compareAnswers({ none: 'not run: no card-2' }, { none: 'no answer: ECONNRESET' }, labels)).toEqual([]);
  });

  test('an empty answer (204) has no content type on either side', () => {
    expect(compareAnswers({ status: 204, contentType: '' }, { status: 204 }, labels)).toEqual([]);
  });
});

describe('lists of a service whose ids are not UUIDs', () => {
  const up = { card1: 'crd_1', theirs: 'crd_0' };
  const byId = new Map([[up.card1, 'card-1']]);
  const hosted = { upstream: (id: string) => byId.get(id), local: labels.local };

  test('items pair by label, and in a list of what the run made, the rest is left out', () => {
    expect(compareAnswers(json(200, [card(up.theirs), card(up.card1)]), json(200, [card(ids.local.card1)]), hosted)).toEqual([
      { kind: 'type', where: 'body[<card-1>].id', upstream: 'string (word)', local: 'string (uuid)' },
    ]);
  });

  test('a list of what was there before alone is left out too, once the other side holds what the run made', () => {
    expect(compareAnswers(json(200, [card(up.theirs)]), json(200, [card(ids.local.card1)]), hosted)).toEqual([
      { kind: 'extra-field', where: 'body[<card-1>]', upstream: null, local: 'object' },
    ]);
  });
});
