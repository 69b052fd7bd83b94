/**
 * Every control operation that takes a JSON body refuses a field it does not know, and every one that
 * takes none refuses a body with fields: a 400 naming the field, and nothing done. A field a client
 * misspells (`Amount`) or borrows from another API (`transaction_id`) is never silently ignored.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { payments, SECOND, type Payments } from '../../testing/payments.js';
import { issuedCard, type BuiltCard } from '../../testing/world.js';

let sb: TestSandbox;
let p: Payments;
let card: BuiltCard;

beforeEach(async () => {
  sb = createTestSandbox();
  p = payments(sb);
  card = await issuedCard(sb, { currencies: ['EUR'] });
});

const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });

type Document = { paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, unknown> } }>> };

/**
 * The control operations that change something, from the control plane's own document; not the
 * mirrors of /v1 operations (the simulator's and the subscriptions'), whose bodies are /v1's.
 */
async function writes() {
  const operations = (doc: Document) => Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
  const v1 = new Map(operations((await sb.json('GET', '/openapi.json', { token: false })).body as Document).map(({ op }) => [op.operationId, op]));
  return operations((await control('GET', '/openapi.json')).body as Document)
    .filter(
      ({ method, op }) =>
        ['post', 'put', 'patch', 'delete'].includes(method) &&
        !(v1.has(op.operationId) && JSON.stringify(v1.get(op.operationId)!.requestBody) === JSON.stringify(op.requestBody)),
    )
    .map(({ method, path, op }) => ({
      method: method.toUpperCase(),
      path,
      takes: op.requestBody === undefined ? 'none' : 'application/json' in op.requestBody.content ? 'json' : 'file',
    }));
}

describe('a field no control body has', () => {
  it('is refused by every control operation, naming the field, and nothing changes', async () => {
    const operations = (await writes()).filter((op) => op.takes !== 'file');
    expect(operations.length).toBeGreaterThanOrEqual(25);
    expect(operations.filter((op) => op.takes === 'json').length).toBeGreaterThanOrEqual(8);
    expect(operations).toContainEqual({ method: 'PATCH', path: '/_sandbox/simulator/authorisations/{authorisationId}/capture', takes: 'json' });
    for (const { method, path } of operations) {
      const before = p.counts();
      // Ids of nothing: the body is read before anything is looked up.
      const res = await sb.json(method, path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000'), { token: false, body: { bogusField: 1 } });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(JSON.stringify(res.body.errors), `${method} ${path}`).toContain('bogusField');
      expect(p.counts(), `${method} ${path}`).toEqual(before);
    }
  });

  it('an empty object or no body is still no body', async () => {
    for (const body of [undefined, {}]) expect((await control('POST', '/webhooks/pause', body)).status).toBe(200);
  });

  it('a body that is not an object, sent to an operation that takes none, is refused', async () => {
    const res = await control('POST', '/webhooks/resume', [1]);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('invalid body: body: must be left out: this operation takes no body');
  });
});

describe('the money controls', () => {
  it('a capture with "Amount" is refused, and the hold is not captured', async () => {
    const id = (await p.authorise(card.cardId, { amount: '100', currency: 'EUR', capture: false })).body.id as string;
    const res = await control('PATCH', `/simulator/authorisations/${id}/capture`, { Amount: '5' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('invalid body: body: Unrecognized key: "Amount"');
    await p.advance(SECOND);
    expect(await p.authorisation(id)).toMatchObject({ status: 'pending' });
  });

  it('a refund with "transaction_id" is refused: no unlinked credit is made', async () => {
    const res = await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '5', currency: 'EUR', transaction_id: card.cardId });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'body', message: 'Unrecognized key: "transaction_id"' }]);
    await p.advance(SECOND);
    expect(await p.cardTransactions(card.cardId)).toEqual([]);
  });
});
