/**
 * The world the snapshot fixtures hold (src/snapshots/fixtures/): something in every table a
 * snapshot carries — customers in several states with accounts and cards, a held authorisation
 * and a captured one with its transaction, a subscription whose deliveries the delivery lab fails
 * (so attempts and retries are due, with no receiver and no timing in them), jobs, an idempotency
 * key, API fault rules and the journal. Built from the harness's seeded ids and frozen clock.
 * Not shipped.
 */
import type { TestSandbox } from './harness.js';
import { payments, SECOND } from './payments.js';
import { issuedCard } from './world.js';

export async function buildFixtureWorld(sb: TestSandbox): Promise<void> {
  const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });
  const pay = payments(sb);
  // Every attempt answered 503 in the receiver's place: attempts and a retry schedule, the same every time.
  await control('PUT', '/webhooks/faults', { fail: { status: 503, rate: 1 } });
  await pay.api('PUT', '/v1/webhooks', {
    body: { callbackUrl: 'http://127.0.0.1:9/hooks', types: ['customer.updated', 'card.updated', 'authorisation.updated', 'transaction.updated'] },
  });
  const seeded = await control('POST', '/seed', {
    customers: [
      {
        externalId: 'fixture-active',
        accounts: [
          { currencies: ['EUR', 'USD'], cards: [{}] },
          { currencies: ['GBP'], cards: [{ status: 'inactive' }] },
        ],
      },
      { externalId: 'fixture-rejected', status: 'rejected' },
      { externalId: 'fixture-initiating', status: 'initiating' },
    ],
  });
  const { cardId } = await issuedCard(sb);
  const held = await pay.authorise(cardId, { amount: '12.50', currency: 'EUR', capture: false });
  await pay.api('POST', `/v1/simulator/cards/${cardId}/authorisation`, {
    body: { amount: '3.20', currency: 'USD' },
    headers: { 'Idempotency-Key': '7d3f0a52-1b6c-4e8e-9a43-2f5c6d7e8f90' },
  });
  await pay.advance(5 * SECOND);
  await control('PUT', '/api/faults', { rules: [{ match: { operationId: 'deleteWebhook' }, status: 503, times: 2 }], seed: 7 });
  for (const res of [seeded, held]) if (res.status !== 201) throw new Error(`the fixture world was refused: ${JSON.stringify(res.body)}`);
}
