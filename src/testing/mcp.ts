/**
 * MCP in the tests: an agent connected in-process to the server, its tools acting on one sandbox;
 * and `card-sandbox mcp` run from an installed copy of the package (a packed tarball unpacked, the
 * image's files): its markdown resources, each with the text it serves, as an agent reads them.
 * Not shipped.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Client as ControlClient } from '../cli/client.js';
import { commandTools } from '../cli/command.js';
import { COMMANDS } from '../cli/program.js';
import { createMcpServer } from '../mcp/server.js';

/** An agent connected in-process to the MCP server, every tool acting on `control`'s sandbox. */
export async function connectedAgent(control: ControlClient, name = 'test-agent'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ client: () => control, unreachable: (message) => message }, commandTools(COMMANDS)).connect(serverSide);
  const agent = new Client({ name, version: '1.0.0' });
  await agent.connect(clientSide);
  return agent;
}

/** The markdown resources of the MCP server in `dir` (a package's root), attached to `url`. */
export async function manualResources(dir: string, url: string): Promise<Map<string, string>> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('CARD_SANDBOX_'))) as Record<string, string>;
  const client = new Client({ name: 'manual-reader', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(dir, 'bin/card-sandbox.cjs'), 'mcp', '--url', url], cwd: dir, env }));
  try {
    const pages = new Map<string, string>();
    for (const resource of (await client.listResources()).resources) {
      if (resource.mimeType !== 'text/markdown') continue;
      const read = await client.readResource({ uri: resource.uri });
      pages.set(resource.uri, (read.contents[0] as { text: string }).text);
    }
    return pages;
  } finally {
    await client.close();
  }
}
