/**
 * `mcp [--start]` (docs/agents.md: Coding agents): the MCP server over stdio, whose tools are the
 * declared commands' tools. Its code is loaded only here: it is a bundle of its own (dist/mcp.cjs).
 */
import { command, PORT_OPTION } from '../command.js';
import { startInProcess } from './in-process.js';

export const mcpCommand = command<{ start?: boolean }>({
  name: 'mcp',
  description: 'A Model Context Protocol server over stdio for coding agents: the client commands as tools, plus explain_request and journey',
  examples: [
    'mcp                      # attached to the running sandbox',
    'mcp --start              # with a sandbox of its own, in this process',
    'claude mcp add card-sandbox -- npx card-sandbox mcp',
  ],
  options: [PORT_OPTION, { flags: '--start', description: 'run a sandbox in this process (in memory, on a free port) instead of attaching to a running one' }],
  action: async ({ run, commands }, flags) => {
    const mcp = await import('../../mcp/server.js');
    const own = flags.start ? await startInProcess() : undefined;
    try {
      await run(own ? { ...flags, url: own.url } : flags, ({ client }) => mcp.serveMcp(client, commands));
    } finally {
      await own?.close();
    }
  },
});
