/**
 * The money path's MCP tools (docs/agents.md: Coding agents): capture with an amount and in
 * several parts, update_amount, force_post, reverse, refund, block, suspend, reinstate, fail_account and the fees tools, each answering with what
 * its command prints with --json, a refusal a tool error carrying the problem. In-process.
 */
import { describe, expect, it } from 'vitest';
import { cliContext } from '../testing/cli.js';
import { moneyWorld } from '../testing/money-world.js';
import { connectedAgent } from '../testing/mcp.js';

async function connected() {
  const { sb, card, pendingAccountId: accountId } = await moneyWorld();
  const agent = await connectedAgent(cliContext(sb, { json: true }).client);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await agent.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = await call(name, args);
    expect(answer.isError, answer.content[0]?.text).toBeFalsy();
    return JSON.parse(answer.content[0]!.text) as any;
  };
  return { sb, agent, call, ok, card, accountId };
}

describe('the money path as MCP tools', () => {
  it('drives every control and answers with the resource', async () => {
    const { sb, agent, ok, card, accountId } = await connected();
    const tools = (await agent.listTools()).tools;
    const capture = tools.find((t) => t.name === 'capture')!;
    expect(capture.inputSchema.required).toEqual(['authorisationId']);
    expect(Object.keys(capture.inputSchema.properties ?? {})).toEqual(['authorisationId', 'amount', 'final']);
    for (const name of [
      'update_amount',
      'force_post',
      'reverse',
      'refund',
      'block',
      'suspend',
      'reinstate',
      'fail_account',
      'fees_show',
      'fees_set',
      'fees_clear',
    ])
      expect(tools.map((t) => t.name)).toContain(name);

    expect(await ok('fees_set', { partner: '1%' })).toEqual({ partner: '1%' });
    const holdId = card.authorisations[1].id;
    expect(await ok('update_amount', { authorisationId: holdId, amount: '12' })).toMatchObject({ id: holdId, status: 'pending', amount: '12' });
    expect(await ok('capture', { authorisationId: holdId, amount: '4', final: false })).toBeNull();
    expect(await ok('capture', { authorisationId: holdId, amount: '3' })).toBeNull();
    expect(await ok('force_post', { cardId: card.id, amount: '1.5', currency: 'EUR', merchantName: 'Late Cafe' })).toMatchObject({
      direction: 'debit',
      status: 'processing',
      amount: '1.5',
      merchant: { name: 'Late Cafe' },
    });
    expect(await ok('reverse', { transactionId: card.authorisations[0].transaction.id })).toMatchObject({ status: 'reversing', direction: 'debit' });
    expect(await ok('refund', { cardId: card.id, amount: '2', currency: 'EUR' })).toMatchObject({
      direction: 'credit',
      fees: [{ type: 'partner', tokenAmount: '0.02' }],
    });
    expect((await ok('suspend', { cardId: card.id })).status).toBe('suspended');
    expect((await ok('reinstate', { cardId: card.id })).status).toBe('active');
    expect((await ok('block', { cardId: card.id })).status).toBe('blocked');
    expect((await ok('fail_account', { accountId })).status).toBe('failed');
    expect(await ok('fees_show')).toEqual({ partner: '1%' });
    expect(await ok('fees_clear')).toEqual({});
    await sb.deps.services.scheduler.advance(sb.deps.clock.now() + 1_000);
    expect(sb.deps.services.transactions.forCard(card.id).filter((t) => t.authorisationId === holdId)).toMatchObject([{ amount: '4' }, { amount: '3' }]);
  });

  it('answers a refusal as a tool error carrying the problem', async () => {
    const { call, card } = await connected();
    const refused = await call('reinstate', { cardId: card.id });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/invalid_state_transition/);
    expect(refused.content[0]!.text).toMatch(/cannot reinstate a card that is active: only a card that is suspended can become active/);
  });
});
