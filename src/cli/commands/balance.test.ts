/**
 * `balance <accountId> [--set]` in-process (docs/cli.md), and its MCP tool (docs/agents.md): an
 * account's funds as a table or, with --json, as the control plane answers them; a bad amount the
 * sandbox's problem naming the field; `programmes create --starting-balance`.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../client/operations.js';
import { cliContext } from '../../testing/cli.js';
import { connectedAgent } from '../../testing/mcp.js';
import { moneyWorld } from '../../testing/money-world.js';
import { balance } from './balance.js';
import { createProgramme } from './programmes.js';

describe('balance', () => {
  it('shows the funds, sets the balance, and prints them as JSON', async () => {
    const { sb, accountId } = await moneyWorld();
    const text = cliContext(sb);
    await balance(text, accountId, '100');
    expect(text.stdout()).toMatch(/BALANCE\s+HELD\s+AVAILABLE\n\s*100\s+9\s+91/);
    const json = cliContext(sb, { json: true });
    await balance(json, accountId);
    expect(JSON.parse(json.stdout())).toEqual({ balance: '100', held: '9', available: '91' });
    const refused = await balance(cliContext(sb), accountId, '-3').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).problem).toMatchObject({ status: 400, errors: [{ path: 'amount' }] });
  });

  it('is the MCP tool balance, setting the balance when given an amount', async () => {
    const { sb, accountId } = await moneyWorld();
    const agent = await connectedAgent(cliContext(sb, { json: true }).client);
    const answer = (await agent.callTool({ name: 'balance', arguments: { accountId, amount: '42.5' } })) as { content: { text: string }[] };
    expect(JSON.parse(answer.content[0]!.text)).toEqual({ balance: '42.5', held: '9', available: '33.5' });
  });

  it('makes a programme whose accounts start with --starting-balance, printing it', async () => {
    const { sb } = await moneyWorld();
    const text = cliContext(sb);
    await createProgramme(text, { name: 'low', startingBalance: '40' });
    expect(text.stdout()).toMatch(/ {2}balance {5}40 \(a new account starts with\)\n/);
    const json = cliContext(sb, { json: true });
    await createProgramme(json, { startingBalance: '12.5' });
    expect(JSON.parse(json.stdout())).toMatchObject({ startingBalance: '12.5' });
    const refused = (await createProgramme(cliContext(sb), { startingBalance: '1.005' }).catch((e: unknown) => e)) as ApiError;
    expect(refused.problem).toMatchObject({ status: 400, errors: [{ path: 'startingBalance' }] });
  });
});
