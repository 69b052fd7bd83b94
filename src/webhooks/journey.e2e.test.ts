/**
 * The integrator's view end to end: subscribe to every type, take a customer through to a card
 * and a captured authorisation, and receive every `*.updated` event — one request per event, each
 * verifiable with the key from GET /v1/webhooks/verification-key, each body the entity as GET
 * returns it.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { publicKeyFrom, verifyWithLibrary, verifyWithNodeCrypto } from '../testing/webhook-verifiers.js';
import { issuedCard } from '../testing/world.js';

let sandbox: TestSandbox;
let receiver: Receiver;
beforeEach(async () => {
  sandbox = createTestSandbox();
  receiver = await startTestReceiver();
});
afterEach(async () => {
  await sandbox.deps.services.webhooks.drain(1000);
  await receiver.close();
});

it('delivers every event of the customer → card → authorisation journey, each verifiable', async () => {
  const subscribed = await sandbox.json('PUT', '/v1/webhooks', { body: { callbackUrl: `${receiver.url}/webhooks`, types: WEBHOOK_TYPES } });
  expect(subscribed.status).toBe(200);
  const { cardId } = await issuedCard(sandbox);
  const authorised = await sandbox.json('POST', `/v1/simulator/cards/${cardId}/authorisation`, { body: { amount: '12.5', currency: 'EUR' } });
  expect(authorised.status).toBe(201);
  await sandbox.deps.services.scheduler.advance(sandbox.deps.clock.now() + 60_000);

  const events = sandbox.deps.store.sqlite.prepare('SELECT id, type, entity_id AS entityId, body FROM events ORDER BY created_at, rowid').all() as {
    id: string;
    type: string;
    entityId: string;
    body: string;
  }[];
  expect(new Set(events.map((e) => e.type))).toEqual(new Set(WEBHOOK_TYPES));
  expect(receiver.requests.map((r) => r.headers['sandbox-event-id']).sort()).toEqual(events.map((e) => e.id).sort());

  const verification = (await sandbox.json('GET', '/v1/webhooks/verification-key')).body;
  const key = publicKeyFrom(verification);
  for (const request of receiver.requests) {
    expect(await verifyWithLibrary(request, key, verification.keyId)).toBe(true);
    expect(verifyWithNodeCrypto(request, key, verification.keyId)).toBe(true);
    const event = events.find((e) => e.id === request.headers['sandbox-event-id'])!;
    expect(request.body.toString()).toBe(event.body);
    expect(JSON.parse(event.body)).toMatchObject({ webhookType: event.type, eventId: event.id, id: event.entityId });
  }

  // The latest event of each entity carries the entity exactly as GET returns it now.
  const paths: Record<string, (id: string) => string> = {
    'customer.updated': (id) => `/v1/customers/${id}`,
    'card.updated': (id) => `/v1/cards/${id}`,
    'authorisation.updated': (id) => `/v1/authorisations/${id}`,
    'transaction.updated': (id) => `/v1/transactions/${id}`,
  };
  for (const [type, path] of Object.entries(paths)) {
    const latest = events.filter((e) => e.type === type).at(-1)!;
    const { webhookType, eventId, ...entity } = JSON.parse(latest.body);
    expect((await sandbox.json('GET', path(latest.entityId))).body).toEqual(entity);
  }
});
