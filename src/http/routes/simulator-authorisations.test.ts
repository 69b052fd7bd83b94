import { OpenAPIHono } from '@hono/zod-openapi';
import { beforeEach, describe, expect, it } from 'vitest';
import { iso } from '../../domain/instant.js';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { MISSING, payments, SECOND, type Payments } from '../../testing/payments.js';
import { issuedCard, type BuiltCard } from '../../testing/world.js';
import type { AppEnv } from '../env.js';
import { problemResponse, toSandboxError, validationError } from '../errors.js';
import { simulatorAuthorisationRoutes } from './simulator-authorisations.js';

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
});

describe('POST /v1/simulator/cards/{cardId}/authorisation', () => {
  it('creates a pending authorisation in the reference’s field order, normalising the amount', async () => {
    const now = sb.deps.clock.now();
    const res = await p.authorise(card.cardId, { amount: '20.0', currency: 'EUR' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      accountId: card.accountId,
      cardId: card.cardId,
      status: 'pending',
      amount: '20',
      currency: 'EUR',
      merchantAmount: '20',
      merchantCurrency: 'EUR',
      exchangeRate: '1',
      merchant: { id: 'TEST', name: 'Test Merchant', mcc: 9999, country: 'GB', city: 'London' },
      createdAt: iso(now),
      updatedAt: iso(now),
    });
    expect(Object.keys(res.body)).toEqual([
      'id',
      'accountId',
      'cardId',
      'status',
      'amount',
      'currency',
      'merchantAmount',
      'merchantCurrency',
      'exchangeRate',
      'merchant',
      'createdAt',
      'updatedAt',
    ]);
    expect(await p.authorisation(res.body.id)).toEqual(res.body);
  });

  it('converts into the account’s first currency at the table rate, half-even to its minor unit', async () => {
    const gbp = await issuedCard(sb, { currencies: ['GBP', 'EUR'] });
    const usd = await issuedCard(sb, { currencies: ['USD'] });
    const cases = [
      [gbp, '1', 'USD', 'GBP', '0.78', '0.785'],
      [gbp, '3', 'USD', 'GBP', '2.36', '0.785'],
      [gbp, '1.50', 'GBP', 'GBP', '1.5', '1'],
      [card, '1000', 'JPY', 'EUR', '6.15', '0.006153846154'],
      [usd, '1.234', 'KWD', 'USD', '4.02', '3.25732899'],
    ] as const;
    for (const [target, amount, currency, accountCurrency, converted, rate] of cases) {
      const res = await p.authorise(target.cardId, { amount, currency });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        merchantAmount: String(Number(amount)),
        merchantCurrency: currency,
        currency: accountCurrency,
        amount: converted,
        exchangeRate: rate,
      });
    }
  });

  it('replaces the given merchant fields and carries them to the transaction', async () => {
    const res = await p.authorise(card.cardId, { amount: '4.5', currency: 'EUR', merchant: { name: 'Corner Café', mcc: 5814, city: 'Paris', country: 'FR' } });
    expect(res.body.merchant).toEqual({ id: 'TEST', name: 'Corner Café', mcc: 5814, country: 'FR', city: 'Paris' });
    await p.advance(SECOND);
    expect((await p.cardTransactions(card.cardId))[0].merchant).toEqual(res.body.merchant);
  });

  describe('refuses, changing nothing', () => {
    const refusals: [string, unknown, string[]][] = [
      ['a zero amount', { amount: '0', currency: 'EUR' }, ['amount']],
      ['a negative amount', { amount: '-1', currency: 'EUR' }, ['amount']],
      ['more fraction digits than EUR has', { amount: '1.234', currency: 'EUR' }, ['amount']],
      ['a fraction of a yen', { amount: '100.5', currency: 'JPY' }, ['amount']],
      ['four digits of dinar', { amount: '1.2345', currency: 'KWD' }, ['amount']],
      ['an amount that is not a number', { amount: 'abc', currency: 'EUR' }, ['amount']],
      ['an amount sent as a JSON number', { amount: 10, currency: 'EUR' }, ['amount']],
      ['a missing amount', { currency: 'EUR' }, ['amount']],
      ['an unknown currency', { amount: '1', currency: 'XYZ' }, ['currency']],
      ['a lower-case currency', { amount: '1', currency: 'eur' }, ['currency']],
      ['capture that is not a boolean', { amount: '1', currency: 'EUR', capture: 'yes' }, ['capture']],
      ['an mcc sent as a string', { amount: '1', currency: 'EUR', merchant: { mcc: '5411' } }, ['merchant.mcc']],
      ['a three-letter merchant country', { amount: '1', currency: 'EUR', merchant: { country: 'GBR' } }, ['merchant.country']],
      ['every bad field at once', { amount: '-5', currency: 'XYZ', merchant: { mcc: 1.5 } }, ['merchant.mcc', 'currency', 'amount']],
      ['a currency the rate table lacks', { amount: '1', currency: 'THB' }, ['currency']],
      ['an amount below a cent once converted', { amount: '0.001', currency: 'KWD' }, ['amount']],
    ];
    for (const [what, body, paths] of refusals) {
      it(`${what} → 400 naming ${paths.join(', ')}`, async () => {
        const before = p.counts();
        const res = await p.authorise(card.cardId, body);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect(res.body).toMatchObject({ status: 400, title: 'Invalid request', code: 'invalid_request' });
        expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([...paths].sort());
        expect(p.counts()).toEqual(before);
      });
    }

    it('a body that is not JSON → 400', async () => {
      const before = p.counts();
      const res = await sb.json('POST', `/v1/simulator/cards/${card.cardId}/authorisation`, {
        body: '{"amount":',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(p.counts()).toEqual(before);
    });

    it('an unknown card → 404 card_not_found', async () => {
      const res = await p.authorise(MISSING, { amount: '1', currency: 'EUR' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ title: 'Card not found', code: 'card_not_found' });
    });

    it('a card id that is not a UUID → 400', async () => {
      const res = await p.authorise('not-a-uuid', { amount: '1', currency: 'EUR' });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('cardId');
    });

    it('an inactive, issuing or terminated card → 400 card_not_active', async () => {
      const { cards } = sb.deps.services;
      const issuing = await issuedCard(sb, { status: 'issuing' });
      cards.deactivate(card.cardId);
      const terminated = await issuedCard(sb);
      cards.terminate(terminated.cardId);
      const before = p.counts();
      for (const cardId of [card.cardId, issuing.cardId, terminated.cardId]) {
        const res = await p.authorise(cardId, { amount: '1', currency: 'EUR' });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ title: 'Invalid request', code: 'card_not_active', detail: expect.stringContaining(cardId) });
      }
      expect(p.counts()).toEqual(before);
    });
  });

  it('answers a repeated Idempotency-Key with the first answer and no second authorisation or event', async () => {
    const headers = { 'Idempotency-Key': '5a0c3b1e-7d2f-4a6b-9c8d-0e1f2a3b4c5d' };
    const first = await sb.json('POST', `/v1/simulator/cards/${card.cardId}/authorisation`, { body: { amount: '5', currency: 'EUR' }, headers });
    const before = p.counts();
    const second = await sb.json('POST', `/v1/simulator/cards/${card.cardId}/authorisation`, { body: { amount: '5', currency: 'EUR' }, headers });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(p.counts()).toEqual(before);
  });
});

describe('PATCH /v1/simulator/authorisations/{authorisationId}/capture and …/release', () => {
  it('refuses an unknown id with 404 and a malformed one with 400', async () => {
    for (const action of ['capture', 'release'] as const) {
      const missing = await sb.json('PATCH', `/v1/simulator/authorisations/${MISSING}/${action}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ title: 'Authorisation not found', code: 'authorisation_not_found' });
      const malformed = await sb.json('PATCH', `/v1/simulator/authorisations/123/${action}`);
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors[0].path).toBe('authorisationId');
    }
  });
});

describe('mounted on an app of its own, as the /_sandbox mirror is', () => {
  it('needs no token, signature or idempotency key', async () => {
    const bare = new OpenAPIHono<AppEnv>({
      defaultHook: (result) => {
        if (!result.success) throw validationError(result.error, result.target);
      },
    });
    bare.onError((error, c) => problemResponse(c, toSandboxError(error, sb.deps.log)));
    // The control plane names the programme a request acts on; here, the default one.
    bare.use('*', (c, next) => {
      c.set('programme', sb.deps.programmes.default());
      return next();
    });
    simulatorAuthorisationRoutes(bare, sb.deps);
    const post = (body: unknown) =>
      bare.request(`/simulator/cards/${card.cardId}/authorisation`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      });
    const created = await post({ amount: '3', currency: 'EUR', capture: false });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await bare.request(`/simulator/authorisations/${id}/release`, { method: 'PATCH' })).status).toBe(202);
    expect((await bare.request(`/simulator/authorisations/${id}/release`, { method: 'PATCH' })).status).toBe(400);
    expect((await post({ amount: '0', currency: 'EUR' })).status).toBe(400);
  });
});

describe('the production environment', () => {
  it('has no authorisation simulator, but still serves authorisations', async () => {
    const prod = createTestSandbox({ env: 'production' });
    const res = await prod.json('POST', `/v1/simulator/cards/${MISSING}/authorisation`, { body: { amount: '1', currency: 'EUR' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('route_not_found');
    expect((await prod.json('PATCH', `/v1/simulator/authorisations/${MISSING}/capture`)).status).toBe(404);
    expect((await prod.json('GET', `/v1/authorisations/${MISSING}`)).body.code).toBe('authorisation_not_found');
  });
});
