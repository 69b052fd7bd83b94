import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../../testing/harness.js';
import { expectShape } from '../../testing/wire.js';
import { Card } from '../../wire/card.js';
import { customer, eventsOf, issuedCard } from '../../testing/world.js';

const UNKNOWN = '3b241101-e2bb-4255-8caf-4136c566a962';

describe('PATCH /v1/simulator/customers/{id}/verify and /reject', () => {
  for (const [action, outcome] of [
    ['verify', 'active'],
    ['reject', 'rejected'],
  ] as const) {
    it(`${action} moves a customer awaiting a verdict to ${outcome} (202)`, async () => {
      const sb = createTestSandbox();
      for (const status of ['initiating', 'verifying'] as const) {
        const { customerId } = await customer(sb, { status });
        const res = await sb.request('PATCH', `/v1/simulator/customers/${customerId}/${action}`);
        expect(res.status).toBe(202);
        expect(await res.text()).toBe('');
        const after = (await sb.json('GET', `/v1/customers/${customerId}`)).body;
        expect(after.status).toBe(outcome);
        expect(eventsOf(sb, customerId).at(-1)).toEqual({ webhookType: 'customer.updated', eventId: expect.any(String), ...after });
      }
    });

    it(`${action} refuses a customer that is not pending with customer_not_pending`, async () => {
      const sb = createTestSandbox();
      const { customerId } = await customer(sb);
      const res = await sb.json('PATCH', `/v1/simulator/customers/${customerId}/${action}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ title: 'Invalid request', code: 'customer_not_pending', detail: expect.stringContaining('active') });
      expect((await sb.json('PATCH', `/v1/simulator/customers/${UNKNOWN}/${action}`)).body).toMatchObject({ status: 404, code: 'customer_not_found' });
      expect((await sb.json('PATCH', `/v1/simulator/customers/nope/${action}`)).status).toBe(400);
    });
  }
});

describe('PATCH /v1/simulator/cards/{id}/issue and /fail', () => {
  it('issue activates the card and fills name, network, masked PAN and expiry', async () => {
    const sb = createTestSandbox();
    const { cardId } = await issuedCard(sb, { status: 'issuing' });
    expect((await sb.request('PATCH', `/v1/simulator/cards/${cardId}/issue`)).status).toBe(202);
    const card = (await sb.json('GET', `/v1/cards/${cardId}`)).body;
    expectShape(card, Card);
    expect(card).toMatchObject({ status: 'active', name: 'SANDBOX CARDHOLDER', network: 'visa', expirationDate: '03/2029' });
    expect(card.maskedPan).toMatch(/^4\d{5}\*{6}\d{4}$/);
    expect(eventsOf(sb, cardId).at(-1)).toEqual({ webhookType: 'card.updated', eventId: expect.any(String), ...card });
  });

  it('uses the configured cardholder name and network', async () => {
    const sb = createTestSandbox({ cardholderName: 'ADA LOVELACE', network: 'mastercard' });
    const { cardId } = await issuedCard(sb);
    const card = (await sb.json('GET', `/v1/cards/${cardId}`)).body;
    expect(card).toMatchObject({ name: 'ADA LOVELACE', network: 'mastercard' });
    expect(card.maskedPan).toMatch(/^5[1-5]\d{4}\*{6}\d{4}$/);
  });

  it('keeps only the masked PAN', async () => {
    const sb = createTestSandbox();
    const { cardId } = await issuedCard(sb);
    const row = sb.deps.store.sqlite.prepare('SELECT * FROM cards WHERE id = ?').get(cardId) as Record<string, unknown>;
    expect(row.masked_pan).toMatch(/^\d{6}\*{6}\d{4}$/);
    expect(Object.values(row).some((v) => typeof v === 'string' && /\d{16}/.test(v))).toBe(false);
  });

  it('fail marks the card issue_failed', async () => {
    const sb = createTestSandbox();
    const { cardId } = await issuedCard(sb, { status: 'issuing' });
    expect((await sb.request('PATCH', `/v1/simulator/cards/${cardId}/fail`)).status).toBe(202);
    const card = (await sb.json('GET', `/v1/cards/${cardId}`)).body;
    expect(card.status).toBe('issue_failed');
    expect(card).not.toHaveProperty('maskedPan');
  });

  for (const action of ['issue', 'fail']) {
    it(`${action} refuses a card that is not issuing with card_not_issuing`, async () => {
      const sb = createTestSandbox();
      const { cardId } = await issuedCard(sb);
      const res = await sb.json('PATCH', `/v1/simulator/cards/${cardId}/${action}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ title: 'Invalid request', code: 'card_not_issuing' });
      expect(eventsOf(sb, cardId)).toHaveLength(2);
      expect((await sb.json('PATCH', `/v1/simulator/cards/${UNKNOWN}/${action}`)).body).toMatchObject({ status: 404, code: 'card_not_found' });
    });
  }
});

describe('the production environment', () => {
  it('has no simulator routes', async () => {
    const sb = createTestSandbox({ env: 'production' });
    for (const path of [`/v1/simulator/customers/${UNKNOWN}/verify`, `/v1/simulator/cards/${UNKNOWN}/issue`]) {
      const res = await sb.json('PATCH', path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('route_not_found');
    }
  });
});
