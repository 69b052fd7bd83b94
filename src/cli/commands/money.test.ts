/**
 * The money path's CLI commands in-process (docs/cli.md): capture --amount [--no-final],
 * update-amount, force-post, reverse, refund,
 * block, suspend, reinstate, fail-account and fees, each saying what happened, printing the
 * resource with --json, and surfacing a refusal as the sandbox's problem.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../client/operations.js';
import { cliContext } from '../../testing/cli.js';
import { moneyWorld } from '../../testing/money-world.js';
import { payments } from '../../testing/payments.js';
import { setFees, showFees } from './fees.js';
import { failAccount, forcePost, moveCard, refund, reverse, updateAmount } from './money.js';
import { simulate } from './simulate.js';

describe('the money path from the CLI', () => {
  it('captures part of a hold, reverses a debit and refunds on a card, saying what happened', async () => {
    const { sb, cardId, debitId, holdId } = await moneyWorld();
    const ctx = cliContext(sb);
    await simulate(ctx, 'capture', holdId, { amount: '4' });
    await reverse(ctx, debitId);
    await refund(ctx, cardId, { amount: '12.50', currency: 'USD', merchantName: 'Corner Shop' });
    const lines = ctx.stdout().split('\n');
    expect(lines[0]).toBe(`✓ authorisation ${holdId} is being captured for 4, the rest released`);
    expect(lines[1]).toBe(`✓ transaction ${debitId} reversing`);
    expect(lines).toContain('  debit      20 EUR');
    expect(lines).toContain('  next       reversed 1 s of sandbox time later');
    expect(lines).toContain('  credit     11.5 EUR (merchant 12.5 USD at 0.92)');
    await payments(sb).advance(1_000);
    const captured = (await payments(sb).cardTransactions(cardId)).find((t) => t.authorisationId === holdId);
    expect(captured).toMatchObject({ amount: '4', direction: 'debit' });
  });

  it('captures a hold in parts, updates its amount and posts a debit with no authorisation, saying what happened', async () => {
    const { sb, cardId, holdId } = await moneyWorld();
    const ctx = cliContext(sb);
    await updateAmount(ctx, holdId, '15');
    await simulate(ctx, 'capture', holdId, { amount: '5', final: false });
    await simulate(ctx, 'capture', holdId);
    await forcePost(ctx, cardId, { amount: '2', currency: 'EUR', merchantName: 'Late Cafe' });
    const lines = ctx.stdout().split('\n');
    expect(lines[0]).toBe(`✓ authorisation ${holdId} pending for 15 EUR, its hold with it`);
    expect(lines[1]).toBe(`✓ authorisation ${holdId} captured in part for 5 now, the rest still held`);
    expect(lines[2]).toBe(`✓ authorisation ${holdId} is being captured`);
    expect(lines[3]).toMatch(/^✓ transaction \S+ processing$/);
    expect(lines).toContain('  debit      2 EUR');
    await payments(sb).advance(1_000);
    const debits = (await payments(sb).cardTransactions(cardId)).filter((t) => t.authorisationId === holdId || t.authorisationId === undefined);
    // Oldest first: the last capture's debit is made when it is captured, after the force post.
    expect(debits.map((t) => [t.amount, t.authorisationId])).toEqual([
      ['5', holdId],
      ['2', undefined],
      ['10', holdId],
    ]);
    const refused = (await updateAmount(ctx, holdId, '20').catch((e: unknown) => e)) as ApiError;
    expect(refused.code).toBe('invalid_state_transition');
  });

  it('prints the resource with --json, as the API returns it', async () => {
    const { sb, cardId, pendingAccountId } = await moneyWorld();
    const ctx = cliContext(sb, { json: true });
    await moveCard(ctx, 'suspend', cardId);
    const text = cliContext(sb);
    await moveCard(text, 'reinstate', cardId);
    expect(text.stdout()).toBe(`✓ card ${cardId} active\n`);
    await moveCard(ctx, 'block', cardId);
    await failAccount(ctx, pendingAccountId);
    const printed = ctx
      .stdout()
      .trim()
      .split(/\n(?=\{)/)
      .map((text) => JSON.parse(text) as { id: string; status: string });
    expect(printed.map((r) => [r.id, r.status])).toEqual([
      [cardId, 'suspended'],
      [cardId, 'blocked'],
      [pendingAccountId, 'failed'],
    ]);
  });

  it('sets, shows and clears fees', async () => {
    const { sb } = await moneyWorld();
    const ctx = cliContext(sb);
    await showFees(ctx);
    await setFees(ctx, { partner: '0.50%', network: '0.10' });
    await showFees(ctx);
    await setFees(ctx, {});
    expect(ctx.stdout().split('\n')).toEqual([
      'no fees: new transactions carry fees: []',
      '✓ every transaction made from now on carries partner 0.5%, network 0.1',
      expect.stringMatching(/^TYPE\s+FEE$/),
      expect.stringMatching(/^partner\s+0\.5%$/),
      expect.stringMatching(/^network\s+0\.1$/),
      '✓ no fees: new transactions carry fees: []',
      '',
    ]);
  });

  it('surfaces a refusal as the problem, naming the state it needs', async () => {
    const { sb, cardId, debitId } = await moneyWorld();
    const ctx = cliContext(sb);
    await reverse(ctx, debitId);
    const again = (await reverse(ctx, debitId).catch((e: unknown) => e)) as ApiError;
    expect(again).toBeInstanceOf(ApiError);
    expect(again.problem).toMatchObject({ status: 409, code: 'invalid_state_transition' });
    const zero = (await refund(ctx, cardId, { amount: '0', currency: 'EUR' }).catch((e: unknown) => e)) as ApiError;
    expect(zero.problem).toMatchObject({ status: 400, errors: [{ path: 'amount', message: 'must be greater than 0' }] });
    const fee = (await setFees(ctx, { service: 'lots' }).catch((e: unknown) => e)) as ApiError;
    expect(fee.problem).toMatchObject({ status: 400, errors: [{ path: 'service' }] });
  });
});
