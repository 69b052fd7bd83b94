/**
 * `card-sandbox mcp` (docs/agents.md: Coding agents): a Model Context Protocol server over stdio for coding
 * agents. Its tools (tools.ts) are the CLI's declared commands, answering with each command's data,
 * plus a few of its own; a refusal is a tool error carrying the problem, and so is a sandbox that
 * cannot be found or does not answer (with how to choose one). Its resources (resources.ts) are
 * the API's OpenAPI document, the README and each page of the manual. Loaded only by that command
 * (its own bundle, dist/mcp.cjs), which hands it the commands' tools and how to find the sandbox.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ApiError } from '../client/operations.js';
import type { ControlClient } from '../client/control.js';
import { version } from '../kernel/version.js';
import { registerResources } from './resources.js';
import type { Tool } from './tool.js';
import { toolsOf } from './tools.js';

/** The sandbox the tools talk to. */
export interface McpSandbox {
  /** Its control client, found again for each call; throws, saying why and how to choose, when none or several could be meant. */
  client(): ControlClient;
  /** What to say when nothing answered (the client's message given): where sandboxes run, and how to choose. */
  unreachable(message: string): string;
}

/** The text beside a tool's structured answer: the JSON itself, which agents read best. No data (the simulator's 202) is null. */
const answer = (data: unknown) => {
  const value = data === undefined ? null : data;
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value };
  return { content: [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }], structuredContent: structured };
};

/**
 * A refusal as a tool error. The client comes from the CLI's bundle, this server from its own, so a
 * refusal is known by the problem it carries rather than by its class.
 */
function failure(error: Error, sandbox: McpSandbox) {
  const { problem } = error as Partial<ApiError>;
  const detail = problem?.detail ?? '';
  // Each field's error once: those the detail already says are not said again below it.
  const more = (problem?.errors ?? []).filter((e) => !detail.includes(e.message));
  const text = problem
    ? `${problem.title ?? 'Refused'} (${problem.status ?? ''} ${problem.code ?? ''}): ${detail}${more.map((e) => `\n  ${e.path} ${e.message}`).join('')}`
    : error.name === 'UnreachableError'
      ? sandbox.unreachable(error.message)
      : error.message;
  return { isError: true, content: [{ type: 'text' as const, text }], ...(problem && { structuredContent: { problem } }) };
}

/** Builds the server, with the commands' tools (`commandTools` in cli/command.ts) and its own; `serveMcp` connects it. */
export function createMcpServer(sandbox: McpSandbox, commandTools: readonly Tool[]): McpServer {
  const server = new McpServer({ name: 'card-sandbox', version: version() });
  for (const tool of toolsOf(commandTools)) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input }, async (args: Record<string, unknown>) => {
      try {
        return answer(await tool.data(sandbox.client(), args));
      } catch (error) {
        if (error instanceof Error) return failure(error, sandbox);
        throw error;
      }
    });
  }
  registerResources(server, () => sandbox.client());
  return server;
}

export async function serveMcp(sandbox: McpSandbox, commandTools: readonly Tool[]): Promise<void> {
  const server = createMcpServer(sandbox, commandTools);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  await server.connect(transport);
  await closed;
}
