/**
 * `card-sandbox mcp` as a coding agent meets it (docs/agents.md: Coding agents): the MCP SDK's own client
 * over stdio, spawning the built CLI against a running sandbox, lists the tools and, through tools
 * alone, goes from nothing to an authorised payment with a delivered webhook, moves the clock, and
 * learns why a tampered request was refused.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { runCommand } from '../testing/cli.js';
import { ROOT, startSandbox, type RunningCli } from '../testing/spawn.js';
import { HUNG_MS, until } from '../testing/wait.js';

let sandbox: RunningCli;
let client: Client;
let receiver: Server;
const delivered: unknown[] = [];

beforeAll(async () => {
  sandbox = await startSandbox(['--verify', 'strict']);
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      delivered.push(JSON.parse(body));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('CARD_SANDBOX_'))) as Record<string, string>;
  client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'bin/card-sandbox.cjs'), 'mcp', '--url', sandbox.url], env }));
}, HUNG_MS);

afterAll(async () => {
  await client?.close();
  await sandbox?.stop();
  receiver?.close();
});

type Answer = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[] };
const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Answer;
const ok = async (name: string, args: Record<string, unknown> = {}) => {
  const answer = await call(name, args);
  expect(answer.isError, `${name}: ${answer.content[0]?.text}`).toBeFalsy();
  return answer.structuredContent as Record<string, any>;
};

test('lists the CLI commands as tools, with explain_request and journey, and its resources', async () => {
  const names = (await client.listTools()).tools.map((t) => t.name);
  for (const name of [
    'health',
    'clock',
    'clock_advance',
    'verify',
    'issue',
    'authorise',
    'capture',
    'cards_list',
    'events_list',
    'events_show',
    'webhooks_faults_set',
    'deliveries_retry',
    'api_faults_set',
    'requests',
    'reset',
    'seed',
    'snapshot_save',
    'snapshot_restore',
    'programmes_create',
    'programmes_list',
    'explain_request',
    'journey',
  ]) {
    expect(names).toContain(name);
  }
  const authorise = (await client.listTools()).tools.find((t) => t.name === 'authorise')!;
  expect(authorise.inputSchema.required).toEqual(['cardId', 'amount', 'currency']);
  const resources = (await client.listResources()).resources.map((r) => r.uri);
  // The README and every page of the manual, as the repository has them.
  const pages = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort();
  expect(resources).toEqual(['card-sandbox://openapi.json', 'card-sandbox://README.md', ...pages.map((f) => `card-sandbox://docs/${f}`)]);
  const openapi = await client.readResource({ uri: 'card-sandbox://openapi.json' });
  expect(JSON.parse((openapi.contents[0] as { text: string }).text)).toMatchObject({ openapi: '3.1.0' });
  const webhooks = await client.readResource({ uri: 'card-sandbox://docs/webhooks.md' });
  expect((webhooks.contents[0] as { text: string }).text).toBe(readFileSync(join(ROOT, 'docs/webhooks.md'), 'utf8'));
});

test('from nothing to an authorised payment with a delivered webhook, and the clock moved', async () => {
  expect(await ok('health')).toMatchObject({ status: 'ok', verify: 'strict' });
  const address = receiver.address() as { port: number };
  await ok('webhooks_subscribe', { callbackUrl: `http://127.0.0.1:${address.port}/hooks`, types: ['authorisation.updated', 'transaction.updated'] });
  const journey = await ok('journey', { externalId: 'agent-alice' });
  expect(journey).toMatchObject({
    customerId: expect.any(String),
    accountId: expect.any(String),
    cardId: expect.any(String),
    wallet: { privateKey: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
  });
  expect((await ok('cards_list', { status: 'active' })).result).toEqual([expect.objectContaining({ id: journey.cardId, status: 'active' })]);
  const authorisation = await ok('authorise', { cardId: journey.cardId, amount: '12.50', currency: 'USD' });
  expect(authorisation).toMatchObject({ cardId: journey.cardId, status: 'pending', merchantAmount: '12.5' });
  const before = Date.parse((await ok('clock')).now);
  const moved = await ok('clock_advance', { by: '2s' });
  expect(Date.parse(moved.now)).toBeGreaterThanOrEqual(before + 2000);
  const events = (await ok('events_list', { type: 'transaction.updated' })).result as { deliveries: { status: string }[] }[];
  expect(events.length).toBeGreaterThan(0);
  await until(() => delivered.some((d) => (d as { webhookType: string }).webhookType === 'transaction.updated'), 'the transaction.updated delivery');
  expect(delivered).toContainEqual(expect.objectContaining({ webhookType: 'authorisation.updated', id: authorisation.id }));
  expect(delivered).toContainEqual(expect.objectContaining({ webhookType: 'transaction.updated', authorisationId: authorisation.id }));
});

test('a snapshot saved, the world wiped, the snapshot restored, a programme forked from it', async () => {
  const cards = async (programme?: string) =>
    ((await fetch(`${sandbox.url}/_sandbox/world/counts${programme ? `?programme=${programme}` : ''}`).then((r) => r.json())) as { cards: number }).cards;
  const held = await cards();
  expect(held).toBeGreaterThan(0);
  const saved = await ok('snapshot_save', { name: 'agent' });
  expect(saved).toMatchObject({ name: 'agent', counts: { cards: held } });
  expect((await ok('snapshot_list')).result).toEqual([saved]);
  await ok('reset');
  expect(await cards()).toBe(0);
  expect(await ok('snapshot_restore', { id: saved.id })).toEqual(saved);
  expect(await cards()).toBe(held);
  const fork = await ok('programmes_create', { from: saved.id });
  expect(await cards(fork.id)).toBe(held);
  expect(await ok('snapshot_delete', { id: saved.id })).toEqual({ deleted: saved.id });
});

test('a refusal is a tool error carrying the problem', async () => {
  const refused = await call('verify', { customerId: '00000000-0000-4000-8000-000000000000' });
  expect(refused.isError).toBe(true);
  expect(refused.content[0]!.text).toMatch(/Customer not found \(404 customer_not_found\)/);
});

test('explains why a tampered request was refused: the failed check, how to fix it, the base the sandbox computed', async () => {
  const { token } = (await (
    await fetch(`${sandbox.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET }),
    })
  ).json()) as { token: string };
  // A body changed after its digest was computed, as a proxy that re-serialises it would.
  const res = await fetch(`${sandbox.url}/v1/customers`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': crypto.randomUUID(),
      'Content-Digest': 'sha-512=:AAAA:',
      'Signature-Input': 'sig=("@method" "@authority" "@path" "content-digest");created=1;keyid="k";alg="ecdsa-p384-sha384"',
      Signature: 'sig=:AAAA:',
    },
    body: JSON.stringify({ chainId: 'eip155:11155111:0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc', externalId: 'tampered' }),
  });
  expect(res.status).toBe(400);
  const explanation = await ok('explain_request', { requestId: res.headers.get('Request-Id')! });
  expect(explanation).toMatchObject({ request: 'POST /v1/customers', status: 400, summary: expect.stringMatching(/^refused with 400 invalid_content_digest/) });
  expect(explanation.failures[0]).toMatchObject({ code: 'invalid_content_digest', fix: expect.stringContaining('SHA-512 of the exact body bytes') });
  expect(explanation.headers).toMatchObject({ 'Content-Digest': 'sha-512=:AAAA:' });
  const unknown = await call('explain_request', { requestId: '00000000-0000-4000-8000-000000000000' });
  expect(unknown.isError).toBe(true);
  expect(unknown.content[0]!.text).toContain('is not in the journal');
  const refusedOnly = (await ok('requests', { refused: true, limit: 1 })).result as { requestId: string }[];
  expect(refusedOnly.map((r) => r.requestId)).toEqual([res.headers.get('Request-Id')]);
});

test(
  'with --start it runs a sandbox of its own, in the same process',
  async () => {
    const own = new Client({ name: 'test-agent', version: '1.0.0' });
    const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('CARD_SANDBOX_'))) as Record<string, string>;
    await own.connect(new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'bin/card-sandbox.cjs'), 'mcp', '--start'], env }));
    try {
      const health = (await own.callTool({ name: 'health', arguments: {} })) as Answer;
      expect(health.structuredContent).toMatchObject({ status: 'ok' });
      const journey = (await own.callTool({ name: 'journey', arguments: {} })) as Answer;
      expect(journey.structuredContent).toMatchObject({ cardId: expect.any(String) });
    } finally {
      await own.close();
    }
  },
  HUNG_MS,
);

test('the skill prints, and installs where an agent looks for skills', async () => {
  // Through the CLI's own entry, in this process.
  const printed = await runCommand(['skill']);
  expect(printed.code).toBe(0);
  expect(printed.stdout).toMatch(/^---\nname: card-sandbox\ndescription: /);
  const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-skill-'));
  try {
    const installed = await runCommand(['skill', '--install', dir]);
    expect(installed.stdout).toContain(`wrote ${join(dir, 'card-sandbox', 'SKILL.md')}`);
    expect(readFileSync(join(dir, 'card-sandbox', 'SKILL.md'), 'utf8')).toBe(readFileSync(join(ROOT, 'SKILL.md'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
