/**
 * `card-sandbox mcp` (docs/agents.md: Coding agents): a Model Context Protocol server over stdio for coding
 * agents. Its tools are the CLI's client commands — the same functions, run in JSON mode, named by
 * the command with `_` for spaces — plus `explain_request` (why the sandbox refused a request, and
 * how to fix it) and `journey` (a verified customer with an active account and an issued card in
 * one call). A refusal is a tool error carrying the problem. Its resources are the API's OpenAPI
 * document, the README and each page of the manual in docs/, all shipped in the package. Loaded
 * only by that command (its own bundle, dist/mcp.cjs).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import type { ApiError } from '../client/operations.js';
import type { createClient, CommandContext } from '../cli/client.js';
import { clearApiFaults, setApiFaults, showApiFaults } from '../cli/commands/api-faults.js';
import { authorise } from '../cli/commands/authorise.js';
import { advanceClock, showClock } from '../cli/commands/clock.js';
import { listEvents, resendEvent, resendWindow, showEvent } from '../cli/commands/events.js';
import { health } from '../cli/commands/health.js';
import { LISTINGS, listResources, type ListingName } from '../cli/commands/lists.js';
import { createProgramme, deleteProgramme, listProgrammes } from '../cli/commands/programmes.js';
import { listRequests } from '../cli/commands/requests.js';
import { reset } from '../cli/commands/reset.js';
import { seed } from '../cli/commands/seed.js';
import { simulate, type Simulation } from '../cli/commands/simulate.js';
import { deleteSnapshot, listSnapshots, restoreSnapshot, saveSnapshot } from '../cli/commands/snapshot.js';
import { clearFaults, deliveryAction, listWebhooks, setFaults, showFaults } from '../cli/commands/webhooks.js';
import { createIo } from '../cli/io.js';
import { createWallet } from '../companion/wallet.js';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { defaultConfig } from '../config.js';
import { buildDeps } from '../deps.js';
import type { JournalEntry } from '../programmes/journal.js';
import { quietLog } from '../kernel/log.js';
import { startServer } from '../server.js';
import { packagePath } from '../kernel/paths.js';
import { version } from '../kernel/version.js';
import { explainRequest } from './explain.js';

type Client = ReturnType<typeof createClient>;
type Shape = Record<string, z.ZodType>;

/** One tool: a CLI command run in JSON mode (or, for the two of its own, a function of the client). */
export interface ToolSpec<S extends Shape = Shape> {
  name: string;
  description: string;
  input: S;
  run(ctx: CommandContext, args: z.infer<z.ZodObject<S>>): Promise<unknown>;
}

const tool = <S extends Shape>(spec: ToolSpec<S>): ToolSpec => spec as unknown as ToolSpec;

const uuid = (what: string) => z.string().describe(`the ${what}'s id`);
const simulation = (action: Simulation, noun: 'customer' | 'card' | 'authorisation', description: string) =>
  tool({ name: action, description, input: { [`${noun}Id`]: uuid(noun) }, run: cli((ctx, args) => simulate(ctx, action, String(Object.values(args)[0]))) });
const listing = (name: ListingName) =>
  tool({
    name: `${name}_list`,
    description: `The programme's ${name}, oldest first, with their ids and statuses (as GET /v1 returns each).`,
    input: {
      status: z
        .enum(LISTINGS[name].statuses as unknown as [string, ...string[]])
        .optional()
        .describe('only those in this status'),
    },
    run: cli((ctx, { status }) => listResources(ctx, name, status)),
  });

/** The tools, in the order `tools/list` shows them. Adding a CLI command's tool is one entry here. */
export const TOOLS: ToolSpec[] = [
  tool({ name: 'health', description: 'Is the sandbox up? Its version, env, verify mode and clock.', input: {}, run: cli((ctx) => health(ctx)) }),
  tool({ name: 'clock', description: "The programme's sandbox time, and whether it is frozen.", input: {}, run: cli(showClock) }),
  tool({
    name: 'clock_advance',
    description:
      'Move the sandbox clock forward, running every job and webhook retry that falls due, in order. Give by (25h, 30d, PT90M, P1M, 1y) or to (a future RFC 3339 instant).',
    input: {
      by: z.string().optional().describe('a duration: 25h, 30d, PT90M, P1M, 1y'),
      to: z.string().optional().describe('a future instant, 2027-01-01T00:00:00Z'),
    },
    run: cli((ctx, target) => advanceClock(ctx, target)),
  }),
  simulation('verify', 'customer', 'KYC passes: the customer becomes active (customer.updated).'),
  simulation('reject', 'customer', 'KYC fails: the customer is rejected.'),
  simulation('issue', 'card', 'The card issuer issues the card: it becomes active.'),
  simulation('fail', 'card', 'The card issuer fails to issue the card.'),
  tool({
    name: 'authorise',
    description: 'A merchant authorises a payment on an active card; captured about a second later unless capture is false.',
    input: {
      cardId: uuid('card'),
      amount: z.string().describe('a decimal amount, 12.50'),
      currency: z.string().describe('ISO 4217, USD'),
      capture: z.boolean().optional().describe('capture automatically (default true)'),
      merchantName: z.string().optional(),
      merchantId: z.string().optional(),
      mcc: z.number().int().optional().describe('merchant category code (default 9999)'),
      merchantCountry: z.string().optional(),
      merchantCity: z.string().optional(),
    },
    run: cli((ctx, { cardId, amount, currency, capture, merchantName, merchantId, mcc, merchantCountry, merchantCity }) =>
      authorise(ctx, cardId, {
        amount,
        currency,
        capture: capture ?? true,
        merchant: { name: merchantName, id: merchantId, mcc, country: merchantCountry, city: merchantCity },
      }),
    ),
  }),
  simulation('capture', 'authorisation', 'Capture a pending authorisation.'),
  simulation('release', 'authorisation', 'Release a pending authorisation.'),
  ...(['customers', 'accounts', 'cards', 'authorisations'] as const).map(listing),
  tool({
    name: 'events_list',
    description: "The programme's events, newest first, each with its webhook body and deliveries.",
    input: {
      type: z.string().optional().describe('customer.updated, card.updated…'),
      entityId: z.string().optional(),
      limit: z.number().int().optional(),
      before: z.string().optional().describe('an event id: page backwards'),
    },
    run: cli((ctx, { type, entityId, limit, before }) => listEvents(ctx, { type, entity: entityId, limit, before })),
  }),
  tool({
    name: 'events_show',
    description: 'One event: its body, its deliveries and every attempt.',
    input: { eventId: uuid('event') },
    run: cli((ctx, { eventId }) => showEvent(ctx, eventId)),
  }),
  tool({
    name: 'events_resend',
    description: 'Queue an event (eventId), or every event of a window (since, until, type), for delivery again.',
    input: { eventId: z.string().optional(), since: z.string().optional(), until: z.string().optional(), type: z.string().optional() },
    run: cli((ctx, { eventId, ...window }) => (eventId !== undefined ? resendEvent(ctx, eventId) : resendWindow(ctx, window))),
  }),
  tool({ name: 'webhooks_list', description: 'The webhook subscriptions.', input: {}, run: cli(listWebhooks) }),
  tool({
    name: 'webhooks_subscribe',
    description: 'Subscribe a URL to webhooks (PUT /v1/webhooks, through the control plane): every event of the types given is delivered to it, signed.',
    input: {
      callbackUrl: z.string().describe('http(s) URL of your receiver'),
      types: z.array(z.enum(WEBHOOK_TYPES)).optional().describe('every event type by default'),
    },
    run: async ({ client }, { callbackUrl, types }) => await client.saveWebhook({ callbackUrl, types: types ?? [...WEBHOOK_TYPES] }),
  }),
  tool({
    name: 'webhooks_faults_set',
    description: 'Delivery-lab faults for all webhooks or one: duplicate=0.2,reorder=0.2,delay=2s-30s,fail.status=503,fail.times=3,timeout=0.1,seed=7.',
    input: { faults: z.string().describe('the --webhook-faults syntax'), webhookId: z.string().optional() },
    run: cli((ctx, { faults, webhookId }) => setFaults(ctx, faults, webhookId)),
  }),
  tool({
    name: 'webhooks_faults_show',
    description: 'The delivery-lab faults in force.',
    input: { webhookId: z.string().optional() },
    run: cli((ctx, { webhookId }) => showFaults(ctx, webhookId)),
  }),
  tool({
    name: 'webhooks_faults_clear',
    description: 'No more delivery-lab faults.',
    input: { webhookId: z.string().optional() },
    run: cli((ctx, { webhookId }) => clearFaults(ctx, webhookId)),
  }),
  tool({
    name: 'deliveries_retry',
    description: 'Make the next attempt of a delivery now.',
    input: { deliveryId: uuid('delivery') },
    run: cli((ctx, { deliveryId }) => deliveryAction(ctx, 'retry', deliveryId)),
  }),
  tool({
    name: 'deliveries_exhaust',
    description: 'Discard a delivery now, as 24 h of retries running out would.',
    input: { deliveryId: uuid('delivery') },
    run: cli((ctx, { deliveryId }) => deliveryAction(ctx, 'exhaust', deliveryId)),
  }),
  tool({
    name: 'api_faults_set',
    description:
      'API fault lab rules for /v1: latency, 500/502/503/504, 429 with retryAfter, reset, expireToken, effect before|after, rate, times, match {method, path, operationId}.',
    input: {
      rules: z.array(z.record(z.string(), z.unknown())).describe('the rules, as PUT /_sandbox/api/faults takes them'),
      seed: z.number().int().optional(),
    },
    run: cli((ctx, body) => setApiFaults(ctx, JSON.stringify(body))),
  }),
  tool({ name: 'api_faults_show', description: 'The API fault rules, with what each has left and its hits.', input: {}, run: cli(showApiFaults) }),
  tool({ name: 'api_faults_clear', description: 'No more API faults.', input: {}, run: cli(clearApiFaults) }),
  tool({
    name: 'requests',
    description: 'The request journal: recent /v1 requests, newest first, with what each was refused or warned for.',
    input: { limit: z.number().int().min(1).optional(), refused: z.boolean().optional().describe('only those answered 4xx/5xx or not answered') },
    run: async (ctx, { limit, refused }) => {
      const entries = (await captured(ctx, listRequests)) as JournalEntry[];
      return entries.filter((e) => !refused || e.status === 0 || e.status >= 400).slice(0, limit);
    },
  }),
  tool({
    name: 'explain_request',
    description:
      'Why the sandbox refused (or warned about) a request: the problem, each failed check with how to fix it, the headers it read and the signature base it computed.',
    input: { requestId: z.string().describe('the Request-Id header of the answer, or requestId of the problem') },
    run: async ({ client }, { requestId }) => explainRequest(await client.listRequests(), requestId),
  }),
  tool({
    name: 'report',
    description:
      "The go-live report: each check (signatures, idempotency keys, retries, token renewal, the receiver's answers, forged deliveries, duplicates, request shapes) as pass, fail or not exercised with evidence and a hint, and the coverage of operations, states and webhooks.",
    input: {},
    run: async ({ client }) => await client.getReport(),
  }),
  tool({
    name: 'journey',
    description:
      'In one call: a customer with its own new wallet, verified, with an active account and an issued virtual card. Returns the ids and the wallet key.',
    input: { externalId: z.string().optional(), currency: z.string().optional().describe('the account currency, EUR by default') },
    run: ({ client }, { externalId, currency }) => journey(client, externalId, currency),
  }),
  tool({ name: 'reset', description: "Wipe the programme's world (credentials, keys and clock stay).", input: {}, run: cli(reset) }),
  tool({
    name: 'seed',
    description: 'Load a seed world from a JSON file (all or nothing).',
    input: { file: z.string().describe('the path of a seed world, such as fixtures/demo.json') },
    run: cli((ctx, { file }) => seed(ctx, file)),
  }),
  tool({
    name: 'snapshot_save',
    description:
      "Take a snapshot of the programme's whole state — world, clock, queues and retries, faults, journal — kept in the sandbox, to restore or fork from.",
    input: { name: z.string().optional() },
    run: cli((ctx, { name }) => saveSnapshot(ctx, name)),
  }),
  tool({ name: 'snapshot_list', description: "The programme's snapshots, oldest first.", input: {}, run: cli(listSnapshots) }),
  tool({
    name: 'snapshot_restore',
    description: 'Put the programme back as a snapshot holds it; what was scheduled since is gone, credentials stay.',
    input: { id: uuid('snapshot') },
    run: cli((ctx, { id }) => restoreSnapshot(ctx, { id })),
  }),
  tool({ name: 'snapshot_delete', description: 'Delete a snapshot.', input: { id: uuid('snapshot') }, run: cli((ctx, { id }) => deleteSnapshot(ctx, id)) }),
  tool({
    name: 'programmes_create',
    description: "A programme of its own: credentials, clock, world — or a snapshot's world and clock, with from.",
    input: {
      name: z.string().optional(),
      clock: z.string().optional().describe('freeze its clock here: now or an instant'),
      randomSeed: z.number().int().optional(),
      from: z.string().optional().describe('a snapshot id: start from its world and clock'),
    },
    run: cli((ctx, input) => createProgramme(ctx, input)),
  }),
  tool({ name: 'programmes_list', description: 'The programmes.', input: {}, run: cli(listProgrammes) }),
  tool({
    name: 'programmes_delete',
    description: 'Delete a programme and all it holds.',
    input: { id: z.string() },
    run: cli((ctx, { id }) => deleteProgramme(ctx, id)),
  }),
];

/** A CLI command as a tool: run in JSON mode, its answer what it printed. */
function cli<A>(command: (ctx: CommandContext, args: A) => Promise<void>): (ctx: CommandContext, args: A) => Promise<unknown> {
  return (ctx, args) => captured(ctx, (c) => command(c, args));
}

/** Runs a CLI command in JSON mode and returns what it printed. */
async function captured(ctx: CommandContext, command: (ctx: CommandContext) => Promise<void>): Promise<unknown> {
  let text = '';
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  await command({ ...ctx, io: createIo(out, new Writable({ write: (_c, _e, done) => done() }), { NO_COLOR: '1' }), json: true });
  return text.trim() === '' ? null : (JSON.parse(text) as unknown);
}

async function journey(client: Client, externalId = `agent-${randomBytes(4).toString('hex')}`, currency = 'EUR') {
  const walletKey = `0x${randomBytes(32).toString('hex')}`;
  const wallet = createWallet({ privateKey: walletKey });
  const seeded = await client.seedWorld({ customers: [{ externalId, chainId: wallet.chainId, accounts: [{ currencies: [currency], cards: [{}] }] }] });
  const customer = seeded.customers[0]!;
  return {
    customerId: customer.id,
    accountId: customer.accounts[0]!.id,
    cardId: customer.accounts[0]!.cards[0]!.id,
    externalId,
    wallet: { address: wallet.address, chainId: wallet.chainId, privateKey: walletKey },
  };
}

/** The text beside a tool's structured answer: the JSON itself, which agents read best. */
const answer = (value: unknown) => {
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value };
  return { content: [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }], structuredContent: structured };
};

/**
 * A refusal as a tool error. The client comes from the CLI's bundle, this server from its own, so a
 * refusal is known by the problem it carries rather than by its class.
 */
function failure(error: Error) {
  const { problem } = error as Partial<ApiError>;
  const text = problem
    ? `${problem.title ?? 'Refused'} (${problem.status ?? ''} ${problem.code ?? ''}): ${problem.detail ?? ''}${problem.errors?.length ? `\n${problem.errors.map((e) => `  ${e.path} ${e.message}`).join('\n')}` : ''}`
    : error.message;
  return { isError: true, content: [{ type: 'text' as const, text }], ...(problem && { structuredContent: { problem } }) };
}

/** Builds the server; `serveMcp` connects it. */
export function createMcpServer(client: Client): McpServer {
  const server = new McpServer({ name: 'card-sandbox', version: version() });
  for (const spec of TOOLS) {
    server.registerTool(spec.name, { description: spec.description, inputSchema: spec.input }, async (args: Record<string, unknown>) => {
      try {
        return answer(await spec.run({ client, io: createIo(), json: true }, args));
      } catch (error) {
        if (error instanceof Error) return failure(error);
        throw error;
      }
    });
  }
  server.registerResource(
    'openapi',
    'card-sandbox://openapi.json',
    { description: "The sandbox's OpenAPI document of the /v1 API", mimeType: 'application/json' },
    async (uri) => {
      const res = await fetch(`${client.url}/openapi.json`);
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
  return server;
}

export async function serveMcp(client: Client): Promise<void> {
  const server = createMcpServer(client);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  await server.connect(transport);
  await closed;
}

/** `mcp --start`: a sandbox in this process, in memory on a free port, its log kept to warnings on stderr. */
export async function startInProcess(): Promise<{ url: string; close: () => Promise<void> }> {
  const running = await startServer(buildDeps(defaultConfig({ port: 0 }), { log: quietLog() }));
  return { url: running.url, close: () => running.close() };
}
