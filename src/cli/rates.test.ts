/**
 * `rates`, `rates set EUR=0.95 …` and `rates reset` (docs/money-path.md: Moving rates), as the CLI
 * prints them and as MCP tools answer; in-process.
 */
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { cliContext } from '../testing/cli.js';
import { connectedAgent } from '../testing/mcp.js';
import { ratePairs, setRates, showRates } from './commands/rates.js';
import { UsageError } from './command.js';

describe('the rates commands', () => {
  it('move rates from CURRENCY=RATE pairs, mark them in the table, and reset to the shipped table', async () => {
    const sb = createTestSandbox();
    const ctx = cliContext(sb);
    await setRates(ctx, ratePairs(['EUR=0.95', 'GBP=0.8']));
    const lines = ctx.stdout().split('\n');
    expect(lines[0]).toMatch(/^CURRENCY\s+PER 1 USD\s+MOVED/);
    expect(lines.find((l) => l.startsWith('EUR'))).toMatch(/^EUR\s+0\.95\s+moved$/);
    expect(lines.find((l) => l.startsWith('JPY'))).toMatch(/^JPY\s+149\.5\s*$/);

    const json = cliContext(sb, { json: true });
    await showRates(json);
    expect(JSON.parse(json.stdout()).moved).toEqual({ EUR: '0.95', GBP: '0.8' });
    expect(() => ratePairs(['EUR:0.95'])).toThrow(UsageError);
    expect(() => ratePairs(['EUR:0.95'])).toThrow('"EUR:0.95" is not CURRENCY=RATE, such as EUR=0.95');
  });

  it('are MCP tools, a refusal a tool error naming the currency', async () => {
    const sb = createTestSandbox();
    const agent = await connectedAgent(cliContext(sb, { json: true }).client);
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await agent.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    expect(JSON.parse((await call('rates_set', { rates: { EUR: '0.95' } })).content[0]!.text).moved).toEqual({ EUR: '0.95' });
    expect(JSON.parse((await call('rates_show')).content[0]!.text).rates.EUR).toBe('0.95');
    const refused = await call('rates_set', { rates: { XYZ: '1' } });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/XYZ: not a currency of the rate table/);
    expect(JSON.parse((await call('rates_reset')).content[0]!.text).moved).toEqual({});
  });
});
