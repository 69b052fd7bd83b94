/**
 * Every command of the CLI, declared in one place. Each command's work is a plain function in
 * `commands/<verb>.ts`; this file only maps flags to arguments. Client commands talk to a running
 * sandbox's control plane; exit codes: 1 refused by the sandbox, 2 bad usage, 3 no sandbox reachable.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError, OPTIONS, resolveConfig, type Config } from '../config.js';
import { parseDuration } from '../domain/duration.js';
import { version } from '../kernel/version.js';
import { UnreachableError } from '../client/control.js';
import { ApiError } from '../client/operations.js';
import { ClientUsageError, CommandFailed, createClient, DEFAULT_URL, refusalOf, resolveClientOptions, type CommandContext } from './client.js';
import { clearApiFaults, setApiFaults, showApiFaults } from './commands/api-faults.js';
import { authorise } from './commands/authorise.js';
import { advanceClock, showClock } from './commands/clock.js';
import { listEvents, resendEvent, resendWindow, showEvent, tailEvents } from './commands/events.js';
import { health } from './commands/health.js';
import { listen } from './commands/listen.js';
import { LISTINGS, listResources, type ListingName } from './commands/lists.js';
import { registerParity } from './commands/parity.js';
import { createProgramme, deleteProgramme, listProgrammes } from './commands/programmes.js';
import { listRequests } from './commands/requests.js';
import { report } from './commands/report.js';
import { reset } from './commands/reset.js';
import { seed } from './commands/seed.js';
import { simulate, type Simulation } from './commands/simulate.js';
import { deleteSnapshot, exportSnapshot, listSnapshots, restoreSnapshot, saveSnapshot } from './commands/snapshot.js';
import { DEFAULT_SKILLS_DIR, skill } from './commands/skill.js';
import { start, StartError } from './commands/start.js';
import { stop as stopSandbox } from './commands/stop.js';
import { clearFaults, deliveryAction, listWebhooks, pauseOrResume, setFaults, showFaults } from './commands/webhooks.js';
import type { Io } from './io.js';
import { recordRunning } from './run-files.js';

export class UsageError extends Error {}

export const EXIT_REFUSED = 1;
export const EXIT_UNREACHABLE = 3;

interface ClientFlags {
  url?: string;
  port?: string;
  programme?: string;
  adminToken?: string;
  json?: boolean;
}

const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ card-sandbox ${l}`).join('\n')}`;

const duration = (name: string) => (raw: string) => {
  const ms = parseDuration(raw);
  if (ms === undefined) throw new InvalidArgumentError(`${name} must be a duration such as 30s, 2m or PT1M`);
  return ms;
};

const integer =
  (name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  (raw: string) => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
const positiveInt = (name: string) => integer(name, 1);

export function buildProgram(io: Io, env: Record<string, string | undefined> = process.env): Command {
  const program = new Command('card-sandbox')
    .description('A local, stateful emulator of a card-issuance programme API, with signed webhooks and time travel.')
    .version(version(), '-v, --version')
    // Set before the commands are declared, so that they inherit it: main() decides the exit code.
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  const startCommand = program
    .command('start')
    .description('Start the sandbox (API on /v1, control plane on /_sandbox)')
    .addHelpText(
      'after',
      `
Examples:
  $ card-sandbox start
  $ card-sandbox start --port 5000 --verify strict --db ./sandbox.db
  $ card-sandbox start --clock 2026-01-01T00:00:00Z --seed fixtures/demo.json

Every flag can also be set with its environment variable (flags win):
${OPTIONS.map((o) => `  ${o.env.padEnd(30)} ${o.flag.split(' ')[0]}`).join('\n')}`,
    );
  const attributeToKey = new Map<string, keyof Config>();
  for (const spec of OPTIONS) {
    const option = new Option(spec.flag, spec.doc);
    if (spec.defaultText ?? (spec.default !== undefined && spec.default !== false)) option.default(undefined, spec.defaultText ?? String(spec.default));
    attributeToKey.set(option.attributeName(), spec.key);
    startCommand.addOption(option);
  }
  startCommand.action(async (opts: Record<string, string | boolean | undefined>) => {
    const flags: Partial<Record<keyof Config, string | boolean>> = {};
    for (const [attribute, value] of Object.entries(opts)) {
      const key = attributeToKey.get(attribute);
      if (key && value !== undefined) flags[key] = value;
    }
    let config: Config;
    try {
      config = resolveConfig(flags, env);
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    const running = await start(config, io);
    const forget = recordRunning(running.url);
    const stop = (signal: string) => {
      io.err(`\n${signal}: shutting down…`);
      void running.close().then(() => {
        forget();
        process.exit(0);
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
    // Run by an npm script (`npm start`): stopping npm by its pid kills it and its shell but not us,
    // which would keep the port. Once the parent is gone, stop as for SIGTERM.
    if (env.npm_lifecycle_event !== undefined) {
      const parent = process.ppid;
      const watch = setInterval(() => {
        if (process.ppid === parent) return;
        clearInterval(watch);
        stop('npm stopped');
      }, 250).unref();
    }
  });

  /** Declares a client command with the options every one of them takes. */
  const client = (parent: Command, nameAndArgs: string, description: string, example: string[], opts: { isDefault?: boolean } = {}) =>
    parent
      .command(nameAndArgs, opts)
      .description(description)
      .option('--url <url>', `the sandbox to talk to (env CARD_SANDBOX_URL, default ${DEFAULT_URL})`)
      .option('--admin-token <token>', 'bearer token, when the sandbox was started with --admin-token (env CARD_SANDBOX_ADMIN_TOKEN)')
      .option('--programme <id>', 'the programme to act on (env CARD_SANDBOX_PROGRAMME, default: the default programme)')
      .option('--json', "print the control plane's JSON and nothing else on stdout")
      .addHelpText('after', examples(...example));

  /** Runs a client command: refusals print the problem and exit 1, a missing sandbox exits 3. */
  const run = async (flags: ClientFlags, fn: (ctx: CommandContext) => Promise<void>) => {
    const json = flags.json === true;
    try {
      await fn({ client: createClient(resolveClientOptions(flags, env)), io, json });
    } catch (error) {
      if (error instanceof ClientUsageError) throw new UsageError(error.message);
      if (error instanceof ApiError) {
        const problem = refusalOf(error);
        if (json) io.json(problem);
        io.err(`${io.color.red(problem.title)}${problem.detail ? `: ${problem.detail}` : ''}`);
        for (const e of problem.errors ?? []) io.err(`  ${io.color.bold(e.path)} ${e.message}`);
        process.exitCode = EXIT_REFUSED;
      } else if (error instanceof UnreachableError) {
        io.err(`${io.color.red('error')} ${error.message}`);
        process.exitCode = EXIT_UNREACHABLE;
      } else if (error instanceof CommandFailed) {
        io.err(`${io.color.red('error')} ${error.message}`);
        process.exitCode = EXIT_REFUSED;
      } else throw error;
    }
  };

  client(program, 'health', 'Check that the sandbox is up: exit 0 when healthy, 1 when it answers but is not, 3 when nothing answers', [
    'health',
    'health --port 5000',
    'health --wait 30s',
  ])
    .option('--port <port>', 'the port the sandbox was started with (env CARD_SANDBOX_PORT, as for start)')
    .option('--wait <duration>', 'keep asking until it is healthy, for up to this long (e.g. 30s)', duration('--wait'))
    .action((flags: ClientFlags & { wait?: number }) => run(flags, (ctx) => health(ctx, flags.wait)));

  // The world, for the ids the simulator commands take (docs/cli.md: CLI).
  for (const name of Object.keys(LISTINGS) as ListingName[]) {
    const group = program.command(name).description(`The programme's ${name}`);
    client(
      group,
      'list',
      `List the ${name}, oldest first, with their ids and statuses`,
      [`${name} list`, `${name} list --status ${LISTINGS[name].statuses[0]} --json`],
      { isDefault: true },
    )
      .option('--status <status>', `only those in this status (${LISTINGS[name].statuses.join(', ')})`)
      .action((flags: ClientFlags & { status?: string }) => run(flags, (ctx) => listResources(ctx, name, flags.status)));
  }

  // Coding agents (docs/agents.md: Coding agents): the MCP server, loaded only here (dist/mcp.cjs), and the skill.
  client(program, 'mcp', 'A Model Context Protocol server over stdio for coding agents: the client commands as tools, plus explain_request and journey', [
    'mcp                      # attached to the running sandbox',
    'mcp --start              # with a sandbox of its own, in this process',
    'claude mcp add card-sandbox -- npx card-sandbox mcp',
  ])
    .option('--port <port>', 'the port the sandbox was started with (env CARD_SANDBOX_PORT, as for start)')
    .option('--start', 'run a sandbox in this process (in memory, on a free port) instead of attaching to a running one')
    .action(async (flags: ClientFlags & { start?: boolean }) => {
      const mcp = await import('../mcp/server.js');
      const own = flags.start ? await mcp.startInProcess() : undefined;
      try {
        await run(own ? { ...flags, url: own.url } : flags, ({ client }) => mcp.serveMcp(client));
      } finally {
        await own?.close();
      }
    });
  program
    .command('skill')
    .description('Print the agent skill for card-sandbox (SKILL.md), or install it where your coding agent looks for skills')
    .option('--install [dir]', 'write <dir>/card-sandbox/SKILL.md (default .claude/skills)')
    .addHelpText('after', examples('skill', 'skill --install', 'skill --install ~/.claude/skills'))
    .action((flags: { install?: string | true }) => skill(io, flags.install === true ? DEFAULT_SKILLS_DIR : flags.install));

  client(program, 'report', 'The go-live report: what your client and receiver did right, wrong and never tried (exit 1 when a check fails)', [
    'report',
    'report --junit go-live.xml',
    'report --json',
  ])
    .option('--junit <file>', 'also write it as JUnit XML: a test case per check and per operation never called')
    .action((flags: ClientFlags & { junit?: string }) => run(flags, (ctx) => report(ctx, flags.junit)));

  client(program, 'stop', 'Stop the sandbox `start` left running on this machine (found as health finds it), and wait until it has', [
    'stop',
    'stop --port 5000',
  ])
    .option('--port <port>', 'the port the sandbox was started with (env CARD_SANDBOX_PORT, as for start)')
    .action((flags: ClientFlags) => run(flags, stopSandbox));

  client(program, 'seed <file>', 'Load a seed world (customers, accounts, cards, webhooks) into the running sandbox; all or nothing', [
    'seed fixtures/demo.json',
  ]).action((file: string, flags: ClientFlags) => run(flags, (ctx) => seed(ctx, file)));

  const clock = client(program, 'clock', 'Show the sandbox clock', [
    'clock',
    'clock advance 25h',
    'clock advance P30D',
    'clock advance --to 2027-01-01T00:00:00Z',
  ]).action((flags: ClientFlags) => run(flags, showClock));
  client(
    clock,
    'advance [duration]',
    'Move the clock forward (ISO 8601 `PT25H`, `P1M`, `P3Y` or `90s`, `25h`, `30d`, `1mo`, `1y`), running every job and webhook retry that falls due, in order',
    ['clock advance 25h', 'clock advance PT90M', 'clock advance P1M', 'clock advance 1y', 'clock advance --to 2027-01-01T00:00:00Z'],
  )
    .option('--to <instant>', 'advance to this future instant instead')
    // `clock` takes the same options, and commander gives it those that follow `advance` too: merge them.
    .action((duration: string | undefined, _flags: unknown, command: Command) => {
      const flags = command.optsWithGlobals<ClientFlags & { to?: string }>();
      if ((duration === undefined) === (flags.to === undefined)) throw new UsageError('give either a duration (e.g. 25h) or --to <instant>');
      return run(flags, (ctx) => advanceClock(ctx, duration !== undefined ? { by: duration } : { to: flags.to }));
    });

  const events = program.command('events').description('Events and their webhook deliveries (list, show, tail, resend)');
  const filters = (command: Command) =>
    command
      .option('--type <type>', 'only this event type, e.g. card.updated')
      .option('--entity <id>', 'only events of this customer, account, card, authorisation or transaction');
  filters(
    client(
      events,
      'list',
      'List events, newest first, with the state of their deliveries',
      ['events list', 'events list --type card.updated --limit 20', 'events list --entity <cardId> --json'],
      { isDefault: true },
    ),
  )
    .option('--limit <n>', 'at most this many (default 100, at most 1000)', positiveInt('--limit'))
    .option('--before <eventId>', 'only events older than this one (the next page)')
    .action((flags: ClientFlags & { type?: string; entity?: string; limit?: number; before?: string }) => run(flags, (ctx) => listEvents(ctx, flags)));
  client(events, 'show <eventId>', 'Show an event: its body and every delivery attempt', ['events show <eventId>']).action(
    (eventId: string, flags: ClientFlags) => run(flags, (ctx) => showEvent(ctx, eventId)),
  );
  filters(
    client(events, 'tail', 'Follow events and delivery outcomes as they happen (Ctrl-C to stop)', [
      'events tail',
      'events tail --type card.updated',
      'events tail --json | jq .',
    ]),
  ).action((flags: ClientFlags & { type?: string; entity?: string }) => {
    const abort = new AbortController();
    process.once('SIGINT', () => abort.abort());
    return run(flags, (ctx) => tailEvents(ctx, flags, abort.signal));
  });
  client(events, 'resend [eventId]', 'Deliver an event again, or every event of a window and/or type, to the webhooks subscribed to its type now', [
    'events resend <eventId>',
    'events resend --since 2026-03-01T09:00:00Z --until 2026-03-01T10:00:00Z',
    'events resend --type card.updated',
  ])
    .option('--since <instant>', 'every event from this instant of sandbox time (ISO 8601)')
    .option('--until <instant>', 'every event before this instant')
    .option('--type <type>', 'every event of this type, e.g. card.updated')
    .action((eventId: string | undefined, flags: ClientFlags & { since?: string; until?: string; type?: string }) => {
      const window = flags.since !== undefined || flags.until !== undefined || flags.type !== undefined;
      if ((eventId === undefined) === !window) throw new UsageError('give an event id, or --since, --until and/or --type');
      return run(flags, (ctx) =>
        eventId !== undefined ? resendEvent(ctx, eventId) : resendWindow(ctx, { since: flags.since, until: flags.until, type: flags.type }),
      );
    });

  // The delivery lab (docs/webhooks.md: Webhooks → The delivery lab).
  const webhooks = program.command('webhooks').description('Webhook subscriptions and the delivery lab: faults, pause and resume');
  client(webhooks, 'list', 'List the webhook subscriptions', ['webhooks list'], { isDefault: true }).action((flags: ClientFlags) => run(flags, listWebhooks));
  const faults = webhooks.command('faults').description('Faults on demand for all webhooks, or one (--webhook): duplicates, reordering, delays, failures');
  const forWebhook = (command: Command) => command.option('--webhook <id>', "only this webhook (its own faults replace the programme's)");
  forWebhook(
    client(faults, 'set <faults>', 'Set the faults, e.g. duplicate=0.2,reorder=0.2,delay=2s-30s,fail.status=503,fail.times=3,timeout=0.1,seed=7', [
      "webhooks faults set 'duplicate=0.2,reorder=0.2,delay=2s-30s'",
      "webhooks faults set 'fail.status=503,fail.times=3' --webhook <id>",
      "webhooks faults set 'fail.status=500,fail.rate=0.3,timeout=0.1,seed=42'",
    ]),
  ).action((spec: string, flags: ClientFlags & { webhook?: string }) => run(flags, (ctx) => setFaults(ctx, spec, flags.webhook)));
  forWebhook(
    client(faults, 'show', 'Show the faults in force', ['webhooks faults show', 'webhooks faults show --webhook <id> --json'], { isDefault: true }),
  ).action((flags: ClientFlags & { webhook?: string }) => run(flags, (ctx) => showFaults(ctx, flags.webhook)));
  forWebhook(client(faults, 'clear', "No more faults (a webhook goes back to the programme's)", ['webhooks faults clear'])).action(
    (flags: ClientFlags & { webhook?: string }) => run(flags, (ctx) => clearFaults(ctx, flags.webhook)),
  );
  for (const action of ['pause', 'resume'] as const) {
    const description =
      action === 'pause' ? "Hold every delivery (or one webhook's): events queue until resume" : 'Let held deliveries go, each at the time it was due';
    forWebhook(client(webhooks, action, description, [`webhooks ${action}`, `webhooks ${action} --webhook <id>`])).action(
      (flags: ClientFlags & { webhook?: string }) => run(flags, (ctx) => pauseOrResume(ctx, action, flags.webhook)),
    );
  }

  // The API fault lab (docs/api-faults.md: The API fault lab).
  const api = program.command('api-faults').description('Faults on demand for API requests: latency, 5xx, 429, closed connections, lost answers');
  client(api, 'set <json>', 'Set the rules: the body of PUT /_sandbox/api/faults, or just its list of rules', [
    `api-faults set '{"rules":[{"match":{"method":"POST","path":"/v1/customers"},"status":503,"times":2}]}'`,
    `api-faults set '[{"status":503,"effect":"after","rate":0.2}]'`,
    `api-faults set '{"rules":[{"status":429,"retryAfter":"3s","rate":0.5}],"seed":7}'`,
  ]).action((text: string, flags: ClientFlags) => run(flags, (ctx) => setApiFaults(ctx, text)));
  client(api, 'show', 'Show the rules, with what each has left and how many requests each faulted', ['api-faults show', 'api-faults show --json'], {
    isDefault: true,
  }).action((flags: ClientFlags) => run(flags, showApiFaults));
  client(api, 'clear', 'No more API faults', ['api-faults clear']).action((flags: ClientFlags) => run(flags, clearApiFaults));

  const deliveries = program.command('deliveries').description('One delivery of an event to a webhook (ids from `events show`)');
  client(deliveries, 'retry <deliveryId>', 'Make the next attempt now, ahead of its schedule (a discarded delivery gets one more)', [
    'deliveries retry <deliveryId>',
  ]).action((deliveryId: string, flags: ClientFlags) => run(flags, (ctx) => deliveryAction(ctx, 'retry', deliveryId)));
  client(deliveries, 'exhaust <deliveryId>', 'Discard it now, as its 24 h of retries running out would', ['deliveries exhaust <deliveryId>']).action(
    (deliveryId: string, flags: ClientFlags) => run(flags, (ctx) => deliveryAction(ctx, 'exhaust', deliveryId)),
  );

  client(program, 'listen', 'Subscribe a URL, print each delivery to it live, and unsubscribe on Ctrl-C (like stripe listen)', [
    'listen --forward-to http://localhost:3000/webhooks',
    'listen --forward-to http://localhost:3000/webhooks --types card.updated,transaction.updated',
  ])
    .requiredOption('--forward-to <url>', 'where to send the webhooks')
    .option('--types <types>', 'comma-separated webhook types (default: all)', (raw: string) =>
      raw
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    )
    .action((flags: ClientFlags & { forwardTo: string; types?: string[] }) => {
      const abort = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => abort.abort());
      return run(flags, (ctx) => listen(ctx, { forwardTo: flags.forwardTo, types: flags.types }, abort.signal));
    });

  const simulations: [Simulation, string, string][] = [
    ['verify', '<customerId>', 'Simulate KYC success: the customer becomes active'],
    ['reject', '<customerId>', 'Simulate KYC rejection'],
    ['issue', '<cardId>', 'Simulate card issuance: the card becomes active with a PAN and expiry'],
    ['fail', '<cardId>', 'Simulate failed card issuance'],
    ['capture', '<authorisationId>', 'Capture an authorisation created with --no-capture'],
    ['release', '<authorisationId>', 'Release an authorisation created with --no-capture'],
  ];
  for (const [action, argument, description] of simulations) {
    client(program, `${action} ${argument}`, description, [`${action} ${argument}`]).action((id: string, flags: ClientFlags) =>
      run(flags, (ctx) => simulate(ctx, action, id)),
    );
  }

  client(program, 'authorise <cardId>', 'Simulate a card authorisation (captured automatically unless --no-capture)', [
    'authorise <cardId> --amount 12.50 --currency EUR',
    'authorise <cardId> --amount 20 --currency GBP --no-capture --merchant-name "Corner Shop"',
  ])
    .requiredOption('--amount <decimal>', 'amount in the merchant currency, e.g. 12.50')
    .requiredOption('--currency <code>', 'ISO 4217 merchant currency, e.g. EUR')
    .option('--no-capture', 'hold the authorisation pending until `capture` or `release`')
    .option('--merchant-name <name>', 'merchant name (default Test Merchant)')
    .option('--merchant-id <id>', 'merchant id (default TEST)')
    .option('--mcc <code>', 'merchant category code (default 9999)', positiveInt('--mcc'))
    .option('--merchant-country <code>', 'merchant country, ISO 3166-1 alpha-2 (default GB)')
    .option('--merchant-city <city>', 'merchant city (default London)')
    .action(
      (
        cardId: string,
        flags: ClientFlags & {
          amount: string;
          currency: string;
          capture: boolean;
          merchantName?: string;
          merchantId?: string;
          mcc?: number;
          merchantCountry?: string;
          merchantCity?: string;
        },
      ) =>
        run(flags, (ctx) =>
          authorise(ctx, cardId, {
            amount: flags.amount,
            currency: flags.currency,
            capture: flags.capture,
            merchant: { name: flags.merchantName, id: flags.merchantId, mcc: flags.mcc, country: flags.merchantCountry, city: flags.merchantCity },
          }),
        ),
    );

  const programmes = program.command('programmes').description('Programmes: isolated sandboxes in this one, each with its own credentials, world and clock');
  client(programmes, 'create', 'Create a programme; prints its id and, once, its API key and secret', [
    'programmes create',
    'programmes create --name worker-1 --clock 2026-01-01T00:00:00Z --json',
    'programmes create --from <snapshotId>',
  ])
    .option('--name <name>', 'a name to tell it by (default: its id)')
    .option('--clock <time>', 'start its clock frozen at this instant (`now` or ISO 8601); running real time otherwise')
    .option('--random-seed <n>', 'draw its ids and randomness from this seed', integer('--random-seed', 0, 2 ** 32 - 1))
    .option('--from <snapshotId>', "start from a snapshot's world and clock (a fork; its clock and seed are the snapshot's)")
    .action((flags: ClientFlags & { name?: string; clock?: string; randomSeed?: number; from?: string }) =>
      run(flags, (ctx) => createProgramme(ctx, { name: flags.name, clock: flags.clock, randomSeed: flags.randomSeed, from: flags.from })),
    );
  // Snapshots (docs/snapshots.md).
  const snapshot = program
    .command('snapshot')
    .description("Snapshots: a programme's whole state — world, clock, queues, faults, journal — saved, put back, forked or carried as a file");
  client(snapshot, 'save', 'Take a snapshot of the programme and keep it in the sandbox', ['snapshot save', 'snapshot save --name golden --json'])
    .option('--name <name>', 'a name to tell it by (default: its id)')
    .action((flags: ClientFlags & { name?: string }) => run(flags, (ctx) => saveSnapshot(ctx, flags.name)));
  client(snapshot, 'list', "List the programme's snapshots, oldest first", ['snapshot list', 'snapshot list --json'], { isDefault: true }).action(
    (flags: ClientFlags) => run(flags, listSnapshots),
  );
  client(snapshot, 'restore [id]', 'Put the programme back as a snapshot holds it (what was scheduled since is gone), or as a snapshot file does', [
    'snapshot restore <id>',
    'snapshot restore --file world.snapshot.json',
  ])
    .option('--file <file>', 'a snapshot file, as `snapshot export` writes it')
    .action((id: string | undefined, flags: ClientFlags & { file?: string }) => {
      const from = id !== undefined ? { id } : flags.file !== undefined ? { file: flags.file } : undefined;
      if (from === undefined || (id !== undefined && flags.file !== undefined)) throw new UsageError('give a snapshot id, or --file <file>');
      return run(flags, (ctx) => restoreSnapshot(ctx, from));
    });
  client(snapshot, 'delete <id>', 'Delete a snapshot', ['snapshot delete <id>']).action((id: string, flags: ClientFlags) =>
    run(flags, (ctx) => deleteSnapshot(ctx, id)),
  );
  client(snapshot, 'export <id>', 'Write a snapshot as a portable file, for `snapshot restore --file` or `start --import`', [
    'snapshot export <id> --out world.snapshot.json',
    'snapshot export <id> > world.snapshot.json',
  ])
    .option('--out <file>', 'the file to write (default: stdout)')
    .action((id: string, flags: ClientFlags & { out?: string }) => run(flags, (ctx) => exportSnapshot(ctx, id, flags.out)));
  client(programmes, 'list', 'List the programmes, the default one first', ['programmes list', 'programmes list --json'], { isDefault: true }).action(
    (flags: ClientFlags) => run(flags, listProgrammes),
  );
  client(programmes, 'delete <id>', 'Delete a programme and everything it holds; its pending webhooks are never sent', ['programmes delete <id>']).action(
    (id: string, flags: ClientFlags) => run(flags, (ctx) => deleteProgramme(ctx, id)),
  );

  // Parity with the hosted service (docs/parity.md): a command of its own, not a client of a running sandbox's control plane.
  registerParity(program, io, env);

  client(program, 'requests', 'Show recent API requests (method, path, status, verification warnings), newest first', ['requests', 'requests --json']).action(
    (flags: ClientFlags) => run(flags, listRequests),
  );

  client(program, 'reset', 'Wipe every customer, account, card, authorisation, transaction, webhook, event and job (credentials and keys stay)', [
    'reset',
  ]).action((flags: ClientFlags) => run(flags, reset));

  program.addHelpText(
    'after',
    examples(
      'start --seed fixtures/demo.json',
      'verify <customerId>',
      'issue <cardId>',
      'authorise <cardId> --amount 12.50 --currency EUR',
      'events tail',
      'clock advance 25h',
    ) + `\n\nClient commands talk to a running sandbox: --url or CARD_SANDBOX_URL (default ${DEFAULT_URL}).`,
  );

  return program;
}

export { StartError };
