/**
 * The CLI: every command, in the order `card-sandbox --help` lists them, each declared in its own
 * module (`commands/<verb>.ts`, see command.ts), and what they share — the client options, run()
 * and the exit codes: 1 refused by the sandbox, 2 bad usage, 3 no sandbox reachable. A new command
 * is its module and one line in COMMANDS; its MCP tool comes with it.
 */
import { Command, Option } from 'commander';
import { version } from '../kernel/version.js';
import { UnreachableError } from '../client/control.js';
import { ApiError } from '../client/operations.js';
import {
  ClientUsageError,
  CommandFailed,
  createClient,
  DEFAULT_URL_TEXT,
  fieldsNotInDetail,
  refusalOf,
  resolveClientOptions,
  type CommandContext,
} from './client.js';
import { CommandExit, StartError, UsageError, type ClientFlags, type CommandDeclaration, type Declaration, type Local } from './command.js';
import { apiFaultsCommands } from './commands/api-faults.js';
import { authoriseCommand } from './commands/authorise.js';
import { clockCommands } from './commands/clock.js';
import { eventsCommands } from './commands/events.js';
import { feesCommands } from './commands/fees.js';
import { ratesCommands } from './commands/rates.js';
import { balanceCommands } from './commands/balance.js';
import { healthCommand } from './commands/health.js';
import { listenCommand } from './commands/listen.js';
import { listCommands } from './commands/lists.js';
import { mcpCommand } from './commands/mcp.js';
import { moneyCommands } from './commands/money.js';
import { parityCommand } from './commands/parity.js';
import { postmanCommand } from './commands/postman.js';
import { programmesCommands } from './commands/programmes.js';
import { reportCommand } from './commands/report.js';
import { explainCommand } from './commands/explain.js';
import { requestsCommand } from './commands/requests.js';
import { resetCommand } from './commands/reset.js';
import { seedCommand } from './commands/seed.js';
import { simulateCommands } from './commands/simulate.js';
import { skillCommand } from './commands/skill.js';
import { snapshotCommands } from './commands/snapshot.js';
import { startCommand } from './commands/start.js';
import { stopCommand } from './commands/stop.js';
import { deliveriesCommands, webhooksCommands } from './commands/webhooks.js';
import type { Io } from './io.js';

export { StartError, UsageError };

export const EXIT_REFUSED = 1;
export const EXIT_UNREACHABLE = 3;

/** Every command, in the order the help lists them (a group's commands in the order they come). */
export const COMMANDS: readonly Declaration[] = [
  startCommand,
  healthCommand,
  ...listCommands,
  mcpCommand,
  skillCommand,
  reportCommand,
  stopCommand,
  seedCommand,
  ...clockCommands,
  ...eventsCommands,
  ...webhooksCommands,
  ...apiFaultsCommands,
  ...deliveriesCommands,
  listenCommand,
  ...simulateCommands,
  authoriseCommand,
  ...moneyCommands,
  ...balanceCommands,
  ...feesCommands,
  ...ratesCommands,
  ...programmesCommands,
  ...snapshotCommands,
  requestsCommand,
  explainCommand,
  resetCommand,
  parityCommand,
  postmanCommand,
];

const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ card-sandbox ${l}`).join('\n')}`;

export function buildProgram(io: Io, env: Record<string, string | undefined> = process.env): Command {
  const program = new Command('card-sandbox')
    .description('A local, stateful emulator of a card-issuance programme API, with signed webhooks and time travel.')
    .version(version(), '-v, --version')
    // Set before the commands are declared, so that they inherit it: main() decides the exit code.
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  /** Runs a client command: refusals print the problem and exit 1, a missing sandbox exits 3. */
  const run = async (flags: ClientFlags, work: (ctx: CommandContext) => Promise<void>) => {
    const json = flags.json === true;
    try {
      const options = resolveClientOptions(flags, env);
      await work({ client: createClient(options), io, json, programme: options.programme });
    } catch (error) {
      if (error instanceof ClientUsageError) throw new UsageError(error.message);
      if (error instanceof ApiError) {
        const problem = refusalOf(error);
        if (json) io.json(problem);
        io.err(`${io.color.red(problem.title)}${problem.detail ? `: ${problem.detail}` : ''}`);
        for (const e of fieldsNotInDetail(problem)) io.err(`  ${io.color.bold(e.path)} ${e.message}`);
        throw new CommandExit(EXIT_REFUSED);
      } else if (error instanceof UnreachableError) {
        io.err(`${io.color.red('error')} ${error.message}`);
        throw new CommandExit(EXIT_UNREACHABLE);
      } else if (error instanceof CommandFailed) {
        io.err(`${io.color.red('error')} ${error.message}`);
        throw new CommandExit(EXIT_REFUSED);
      } else throw error;
    }
  };

  const local: Local = { io, env, commands: COMMANDS, run };
  for (const declaration of COMMANDS) register(program, declaration, local);

  program.addHelpText(
    'after',
    examples(
      'start --seed fixtures/demo.json',
      'verify <customerId>',
      'issue <cardId>',
      'authorise <cardId> --amount 12.50 --currency EUR',
      'events tail',
      'clock advance 25h',
    ) + `\n\nClient commands talk to a running sandbox: --url or CARD_SANDBOX_URL (default: ${DEFAULT_URL_TEXT}).`,
  );
  return program;
}

/** Adds a declared command (or group) to the program, under the group its first words name. */
function register(program: Command, declaration: Declaration, local: Local): void {
  const words = declaration.name.split(' ');
  const last = words.pop()!;
  const parent = words.reduce((at, word) => {
    const found = at.commands.find((c) => c.name() === word);
    if (!found) throw new Error(`${declaration.name}: declare "${word}" before the commands under it`);
    return found;
  }, program);
  if (declaration.kind === 'group') {
    parent.command(last).description(declaration.description);
    return;
  }
  const command = parent
    .command(declaration.args ? `${last} ${declaration.args}` : last, declaration.isDefault ? { isDefault: true } : {})
    .description(declaration.description);
  if (declaration.client !== false) {
    command
      .option('--url <url>', `the sandbox to talk to (env CARD_SANDBOX_URL; default: ${DEFAULT_URL_TEXT})`)
      .option('--admin-token <token>', 'bearer token, when the sandbox was started with --admin-token (env CARD_SANDBOX_ADMIN_TOKEN)');
    if (declaration.programme !== false)
      command.option('--programme <id>', 'the programme to act on (env CARD_SANDBOX_PROGRAMME, default: the default programme)');
    command.option('--json', "print the control plane's JSON and nothing else on stdout");
  }
  for (const spec of declaration.options ?? []) {
    const option = new Option(spec.flags, spec.description);
    if (spec.parse) option.argParser(spec.parse);
    if (spec.required) option.makeOptionMandatory();
    if (spec.defaultText !== undefined) option.default(undefined, spec.defaultText);
    command.addOption(option);
  }
  command.addHelpText('after', examples(...declaration.examples) + (declaration.helpAfter ?? ''));
  command.action((...params: unknown[]) => act(declaration, local, params));
}

/**
 * Runs a declared command with commander's arguments: the positional ones, then the options and the
 * command. A command's options are merged with its group's (`clock advance --url` and `clock --url …
 * advance` alike).
 */
function act(declaration: CommandDeclaration, local: Local, params: unknown[]): Promise<void> | void {
  const command = params.at(-1) as Command;
  const args = params.slice(0, -2) as string[];
  const flags = command.optsWithGlobals<ClientFlags>();
  if (declaration.action) return declaration.action(local, flags, ...args);
  return local.run(flags, declaration.run!(flags, ...args));
}
