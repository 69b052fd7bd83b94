/**
 * The MCP server's resources (docs/agents.md: Coding agents): the API's OpenAPI document, read from the
 * sandbox, then the README and each page of the manual in docs/, all shipped in the package.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ControlClient } from '../client/control.js';
import { packagePath } from '../kernel/paths.js';

/** `client` finds the sandbox when the OpenAPI document is read. */
export function registerResources(server: McpServer, client: () => ControlClient): void {
  server.registerResource(
    'openapi',
    'card-sandbox://openapi.json',
    { description: "The sandbox's OpenAPI document of the /v1 API", mimeType: 'application/json' },
    async (uri) => {
      const res = await fetch(`${client().url}/openapi.json`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: await res.text() }] };
    },
  );
  // The README, then the manual's pages: each one's title is read now, its text when asked for.
  const pages = readdirSync(packagePath('docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  for (const file of ['README.md', ...pages]) {
    const title = /^# (.+)$/m.exec(readFileSync(packagePath(file), 'utf8'))?.[1] ?? file;
    const description =
      file === 'README.md' ? "card-sandbox's README, with the quick start, the first five minutes and the manual's pages" : `card-sandbox's manual: ${title}`;
    server.registerResource(file === 'README.md' ? 'readme' : file, `card-sandbox://${file}`, { description, mimeType: 'text/markdown' }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: readFileSync(packagePath(file), 'utf8') }],
    }));
  }
}
