/**
 * `mcp [--start]` (docs/agents.md: Coding agents): the MCP server over stdio, whose tools are the
 * declared commands' tools. It always completes the handshake: the sandbox is found again for
 * each tool call, as every client command finds it (`--url`, `--port`, the environment, the one
 * running), and when none or several could be meant each tool says so, with the sandboxes running
 * on this machine and how to name one in the server's args. Its code is loaded only here: it is a
 * bundle of its own (dist/mcp.cjs).
 */
import { ClientUsageError, createClient, resolveClientOptions } from '../client.js';
import { command, commandTools, PORT_OPTION, type ClientFlags } from '../command.js';
import { runningSandboxes, type RunFile } from '../run-files.js';
import { startInProcess } from './in-process.js';

/** The sandboxes running here, and how to name one in the server's args (an agent's mcp.json does not pass the shell's variables). */
export function howToChoose(running: readonly RunFile[]): string {
  const args = (flag: string, value: string) => `"args": ["card-sandbox", "mcp", "${flag}", "${value}"]`;
  const example = running[0] ? new URL(running[0].url).port : '4242';
  const list =
    running.length === 0
      ? 'No sandbox is running on this machine (`card-sandbox start` starts one; `card-sandbox mcp --start` gives the MCP server one of its own).'
      : `Running on this machine: ${running.map((r) => r.url).join(', ')}.`;
  return `${list} Name the sandbox in the MCP server's args, e.g. ${args('--port', example)} or ${args('--url', running[0]?.url ?? 'http://127.0.0.1:4242')} in mcp.json, then reconnect the server.`;
}

export const mcpCommand = command<{ start?: boolean }>({
  name: 'mcp',
  description: 'A Model Context Protocol server over stdio for coding agents: the client commands as tools, plus explain_request and journey',
  examples: [
    'mcp                      # attached to the running sandbox',
    'mcp --port 5000          # attached to the sandbox started with --port 5000',
    'mcp --start              # with a sandbox of its own, in this process',
    'claude mcp add card-sandbox -- npx card-sandbox mcp',
  ],
  options: [PORT_OPTION, { flags: '--start', description: 'run a sandbox in this process (in memory, on a free port) instead of attaching to a running one' }],
  action: async ({ io, env, commands }, flags) => {
    const mcp = await import('../../mcp/server.js');
    const own = flags.start ? await startInProcess() : undefined;
    const options: ClientFlags = own ? { ...flags, url: own.url } : flags;
    const sandbox = {
      client: () => {
        try {
          return createClient(resolveClientOptions(options, env));
        } catch (error) {
          if (!(error instanceof ClientUsageError)) throw error;
          const running = runningSandboxes();
          const several = running.length > 1 && options.url === undefined && options.port === undefined;
          throw new Error(
            `${several ? `${running.length} sandboxes are running on this machine, and the MCP server's args do not say which to use` : error.message}. ${howToChoose(running)}`,
          );
        }
      },
      unreachable: (message: string) => `${message}. ${howToChoose(runningSandboxes())}`,
    };
    try {
      sandbox.client();
    } catch (error) {
      // The handshake goes on: each tool will say the same; an agent's log shows this line.
      io.err(`card-sandbox mcp: ${(error as Error).message}`);
    }
    try {
      await mcp.serveMcp(sandbox, commandTools(commands));
    } finally {
      await own?.close();
    }
  },
});
