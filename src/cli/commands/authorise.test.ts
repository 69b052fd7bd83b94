import { describe, expect, it } from 'vitest';
import { cliContext } from '../../testing/cli.js';
import { createTestSandbox } from '../../testing/harness.js';
import { ApiError } from '../../client/operations.js';
import { authorise } from './authorise.js';

async function activeCard() {
  const sb = createTestSandbox();
  const { body } = await sb.json('POST', '/_sandbox/seed', {
    token: false,
    body: { customers: [{ externalId: 'c', accounts: [{ currencies: ['EUR'], cards: [{}] }] }] },
  });
  return { sb, cardId: body.customers[0].accounts[0].cards[0].id as string };
}

describe('authorise', () => {
  it('holds an authorisation with --no-capture and says how to finish it', async () => {
    const { sb, cardId } = await activeCard();
    const ctx = cliContext(sb);
    await authorise(ctx, cardId, { amount: '12.50', currency: 'EUR', capture: false });
    const [auth] = sb.deps.store.sqlite.prepare('select id, status, capture from authorisations').all() as { id: string; status: string; capture: number }[];
    expect(auth).toMatchObject({ status: 'pending', capture: 0 });
    expect(ctx.stdout()).toContain(`✓ authorisation ${auth!.id} pending`);
    expect(ctx.stdout()).toContain('12.5 EUR');
    expect(ctx.stdout()).toContain(`card-sandbox capture ${auth!.id}`);
  });

  it('fills the rest of the merchant from the defaults when some fields are given', async () => {
    const { sb, cardId } = await activeCard();
    const ctx = cliContext(sb, { json: true });
    await authorise(ctx, cardId, { amount: '3', currency: 'EUR', capture: true, merchant: { name: 'Corner Shop', city: undefined } });
    const auth = JSON.parse(ctx.stdout());
    expect(auth.merchant).toEqual({ id: 'TEST', name: 'Corner Shop', mcc: 9999, country: 'GB', city: 'London' });
    expect(auth.status).toBe('pending');
  });

  it('surfaces a refused amount', async () => {
    const { sb, cardId } = await activeCard();
    const error = (await authorise(cliContext(sb), cardId, { amount: '1.234', currency: 'EUR', capture: true }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.problem!.status).toBe(400);
    expect(error.problem!.errors?.map((e) => e.path)).toContain('amount');
  });
});
