import { describe, expect, it } from 'vitest';
import { cliContext } from '../../testing/cli.js';
import { createTestSandbox } from '../../testing/harness.js';
import { ApiError } from '../../client/operations.js';
import { simulate } from './simulate.js';

async function world() {
  const sb = createTestSandbox({ verify: 'strict' });
  const { body } = await sb.json('POST', '/_sandbox/seed', {
    token: false,
    body: {
      customers: [
        { externalId: 'k', status: 'initiating' },
        { externalId: 'c', accounts: [{ currencies: ['EUR'], cards: [{ status: 'issuing' }] }] },
      ],
    },
  });
  return { sb, customerId: body.customers[0].id as string, cardId: body.customers[1].accounts[0].cards[0].id as string };
}

describe('verify, reject, issue, fail', () => {
  it('drive the simulator and say what happened', async () => {
    const { sb, customerId, cardId } = await world();
    const ctx = cliContext(sb);
    await simulate(ctx, 'verify', customerId);
    await simulate(ctx, 'fail', cardId);
    expect(ctx.stdout()).toBe(`✓ customer ${customerId} verified\n✓ card ${cardId} failed to issue\n`);
    expect(sb.deps.services.customers.get(customerId).status).toBe('active');
    expect(sb.deps.services.cards.get(cardId).status).toBe('issue_failed');
  });

  it('print nothing with --json (the simulator answers 202 without a body)', async () => {
    const { sb, customerId } = await world();
    const ctx = cliContext(sb, { json: true });
    await simulate(ctx, 'reject', customerId);
    expect(ctx.stdout()).toBe('');
    expect(sb.deps.services.customers.get(customerId).status).toBe('rejected');
  });

  it('surface the refusal as the problem', async () => {
    const { sb, customerId } = await world();
    const ctx = cliContext(sb);
    await simulate(ctx, 'verify', customerId);
    const error = (await simulate(ctx, 'verify', customerId).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.problem).toMatchObject({ status: 400, code: 'customer_not_pending' });
    const unknown = (await simulate(ctx, 'issue', '7c9e6679-7425-40de-944b-e07fc1f90ae7').catch((e: unknown) => e)) as ApiError;
    expect(unknown.problem).toMatchObject({ status: 404, title: 'Card not found' });
  });

  it('keep an id from escaping its path segment', async () => {
    const { sb } = await world();
    const error = (await simulate(cliContext(sb), 'issue', '../../reset').catch((e: unknown) => e)) as ApiError;
    expect(error.problem!.status).toBe(400);
    expect(sb.deps.services.customers.list()).toHaveLength(2);
  });
});
