/**
 * The MCP server's tools come from the CLI's declarations (docs/agents.md: Coding agents): one per
 * command that declares a tool, named after it, and each answers with what its command prints with
 * --json. In-process: the SDK's client over a memory transport, the CLI against a test sandbox.
 */
import { describe, expect, it } from 'vitest';
import { commandTools, toolName, type CommandDeclaration } from '../cli/command.js';
import { COMMANDS } from '../cli/program.js';
import { cliContext } from '../testing/cli.js';
import { createTestSandbox } from '../testing/harness.js';
import { connectedAgent } from '../testing/mcp.js';
import { toolsOf } from './tools.js';

async function connected() {
  const sb = createTestSandbox();
  await sb.json('POST', '/_sandbox/seed', {
    token: false,
    body: {
      webhooks: [{ callbackUrl: 'http://127.0.0.1:9/hooks', types: ['customer.updated'] }],
      customers: [{ externalId: 'c', accounts: [{ currencies: ['EUR'], cards: [{}] }] }],
    },
  });
  const cli = cliContext(sb, { json: true });
  const agent = await connectedAgent(cli.client);
  return { sb, cli, agent };
}

describe('the tools', () => {
  it('are the declared commands’ tools, named after them, then the server’s own, each name once', () => {
    const declared = COMMANDS.filter((d): d is CommandDeclaration => d.kind === 'command' && d.tool !== undefined).map(toolName);
    const names = toolsOf(commandTools(COMMANDS)).map((t) => t.name);
    expect(names).toEqual([...declared, 'webhooks_subscribe', 'journey']);
    expect(new Set(names).size).toBe(names.length);
    expect(declared).toEqual(
      expect.arrayContaining(['clock_advance', 'cards_list', 'webhooks_faults_set', 'api_faults_set', 'snapshot_restore', 'explain_request']),
    );
  });

  it('answer with what the command prints with --json', async () => {
    const { sb, agent } = await connected();
    const printed = async (name: string, args: string[] = [], flags: Record<string, unknown> = {}) => {
      const declaration = COMMANDS.find((d): d is CommandDeclaration => d.kind === 'command' && d.name === name)!;
      const ctx = cliContext(sb, { json: true });
      await declaration.run!(flags, ...args)(ctx);
      return JSON.parse(ctx.stdout()) as unknown;
    };
    const answered = async (name: string, args: Record<string, unknown> = {}) => {
      const answer = (await agent.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
      expect(answer.isError, answer.content[0]?.text).toBeFalsy();
      return JSON.parse(answer.content[0]!.text) as unknown;
    };
    expect(await answered('health')).toEqual(await printed('health'));
    expect(await answered('clock')).toEqual(await printed('clock'));
    expect(await answered('cards_list', { status: 'active' })).toEqual(await printed('cards list', [], { status: 'active' }));
    expect(await answered('webhooks_list')).toEqual(await printed('webhooks list'));
    expect(await answered('events_list', { limit: 2 })).toEqual(await printed('events list', [], { limit: 2 }));
    expect(await answered('webhooks_faults_show')).toEqual(await printed('webhooks faults show'));
    expect(await answered('programmes_list')).toEqual(await printed('programmes list'));
    expect(await answered('requests')).toEqual(await printed('requests'));
  });

  it('pause, resume and delete the subscription an agent made', async () => {
    const { sb, agent } = await connected();
    const call = async (name: string, args: Record<string, unknown>) => {
      const answer = (await agent.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
      expect(answer.isError, answer.content[0]?.text).toBeFalsy();
      return JSON.parse(answer.content[0]!.text) as Record<string, unknown>;
    };
    const hook = await call('webhooks_subscribe', { callbackUrl: 'http://127.0.0.1:9/agent', types: ['card.updated'] });
    expect(await call('webhooks_pause', { webhookId: hook.id })).toMatchObject({ paused: true });
    expect(await call('webhooks_resume', { webhookId: hook.id })).toMatchObject({ paused: false });
    expect(await call('webhooks_delete', { webhookId: hook.id })).toEqual({ deleted: hook.id });
    expect(sb.deps.services.webhooks.list().map((w) => w.id)).not.toContain(hook.id);
  });

  it('authorise takes the amount as a JSON number, as models and the inspector send it', async () => {
    const { sb, agent } = await connected();
    const [card] = sb.deps.store.sqlite.prepare('select id from cards').all() as { id: string }[];
    const answer = (await agent.callTool({ name: 'authorise', arguments: { cardId: card!.id, amount: 12.5, currency: 'EUR' } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(answer.isError, answer.content[0]?.text).toBeFalsy();
    expect(JSON.parse(answer.content[0]!.text)).toMatchObject({ cardId: card!.id, merchantAmount: '12.5', merchantCurrency: 'EUR' });
  });

  it('tell a refusal as a tool error carrying the problem', async () => {
    const { agent } = await connected();
    const refused = (await agent.callTool({ name: 'issue', arguments: { cardId: '00000000-0000-4000-8000-000000000000' } })) as {
      isError?: boolean;
      content: { text: string }[];
      structuredContent?: { problem: { code: string } };
    };
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent?.problem.code).toBe('card_not_found');
  });

  it('says the detail of a refusal once, not again as each field error', async () => {
    const { agent } = await connected();
    const refused = (await agent.callTool({ name: 'issue', arguments: { cardId: 'not-a-uuid' } })) as { isError?: boolean; content: { text: string }[] };
    expect(refused.isError).toBe(true);
    const text = refused.content[0]!.text;
    expect(text).toBe('Invalid request (400 invalid_request): invalid path parameters: cardId: must be a UUID');
    expect(text.split('must be a UUID')).toHaveLength(2);
  });
});
