/**
 * `card-sandbox mcp` with several sandboxes running, or none answering (docs/agents.md: Coding agents):
 * the server always completes the handshake and lists its tools; each tool then says which
 * sandboxes run and how to name one in the server's args, and `--port`/`--url` there pick it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { assertBuilt, freePort, ROOT, startSandbox, type RunningCli } from '../testing/spawn.js';

// The sandboxes of this file keep their run files in a temporary directory of their own.
const tmp = mkdtempSync(join(tmpdir(), 'card-sandbox-mcp-choose-'));
const CLOCKS = ['2031-01-01T00:00:00.000Z', '2032-01-01T00:00:00.000Z', '2033-01-01T00:00:00.000Z'];
let sandboxes: RunningCli[] = [];

beforeAll(async () => {
  assertBuilt();
  sandboxes = await Promise.all(CLOCKS.map((clock) => startSandbox(['--clock', clock], { TMPDIR: tmp })));
});
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.stop()));
  rmSync(tmp, { recursive: true, force: true });
});

type Answer = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[] };

/** An agent's session: the server spawned as an mcp.json would, with none of the shell's CARD_SANDBOX_* variables. */
async function agent(args: string[], temp = tmp) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('CARD_SANDBOX_'))) as Record<string, string>;
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'bin/card-sandbox.cjs'), 'mcp', ...args],
      env: { ...env, TMPDIR: temp },
      stderr: 'ignore',
    }),
  );
  return client;
}
const call = async (client: Client, name: string) => (await client.callTool({ name, arguments: {} })) as Answer;

test.concurrent('with three sandboxes running it completes the handshake, and each tool says which run and how to choose', async () => {
  const client = await agent([]);
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['health', 'clock', 'journey']));
    for (const name of ['health', 'clock']) {
      const answer = await call(client, name);
      expect(answer.isError).toBe(true);
      const text = answer.content[0]!.text;
      expect(text).toContain("3 sandboxes are running on this machine, and the MCP server's args do not say which to use");
      for (const sandbox of sandboxes) expect(text).toContain(sandbox.url);
      expect(text).toContain(`"args": ["card-sandbox", "mcp", "--port", "${new URL(sandboxes[0]!.url).port}"]`);
    }
  } finally {
    await client.close();
  }
});

test.concurrent('--port and --url in the server args name the sandbox', async () => {
  for (const [i, args] of [
    [1, ['--port', new URL(sandboxes[1]!.url).port]],
    [2, ['--url', sandboxes[2]!.url]],
  ] as const) {
    const client = await agent([...args]);
    try {
      const answer = await call(client, 'clock');
      expect(answer.isError, answer.content[0]?.text).toBeFalsy();
      expect(answer.structuredContent).toEqual({ now: CLOCKS[i], frozen: true });
    } finally {
      await client.close();
    }
  }
});

test.concurrent('when nothing answers, each tool says so, and that none is running here', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'card-sandbox-mcp-none-'));
  const client = await agent(['--url', `http://127.0.0.1:${await freePort()}`], empty);
  try {
    const answer = await call(client, 'health');
    expect(answer.isError).toBe(true);
    expect(answer.content[0]!.text).toMatch(/^no sandbox reachable at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(answer.content[0]!.text).toContain('No sandbox is running on this machine (`card-sandbox start` starts one; `card-sandbox mcp --start`');
  } finally {
    await client.close();
    rmSync(empty, { recursive: true, force: true });
  }
});
