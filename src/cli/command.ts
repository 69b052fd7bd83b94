/**
 * What a CLI command declares about itself, beside its plain function in `commands/<verb>.ts`: its
 * words, arguments, options, description and examples, how it runs, and the MCP tool it also is.
 * program.ts registers the declarations in the order of its list; the MCP server (mcp/server.ts)
 * is handed a tool for each one that has `tool` (commandTools), answering with the command's data — what it prints
 * with --json — rather than with its printed output. Also the option parsers commands share.
 */
import { InvalidArgumentError } from 'commander';
import { durationMistake, parseDuration } from '../domain/duration.js';
import type { Tool, ToolDeclaration } from '../mcp/tool.js';
import type { Client, CommandContext } from './client.js';
import type { Io } from './io.js';

export { tool } from '../mcp/tool.js';

/** Bad usage: the command prints it and exits 2. */
export class UsageError extends Error {}

/** The sandbox `start` was asked for cannot start as configured: it prints why and exits 2. */
export class StartError extends Error {}

/** Ends a command with this exit code, what it had to say already printed (main.ts returns it). */
export class CommandExit extends Error {
  constructor(readonly code: number) {
    super(`exit code ${code}`);
  }
}

/** A command's work as a function of the command context, and its data as a function of the client. */
export interface Printed<A extends unknown[], T> {
  (ctx: CommandContext, ...args: A): Promise<void>;
  /** What the command prints with --json, and its MCP tool's answer. */
  data(client: Client, ...args: A): Promise<T>;
}

/**
 * A command made of its data and how that reads in a terminal: with --json it prints the data (nothing
 * when there is none, as for the simulator's empty answers), otherwise `print` tells it.
 */
export function printed<A extends unknown[], T>(
  data: (client: Client, ...args: A) => Promise<T>,
  print: NoInfer<(ctx: CommandContext, value: T, ...args: A) => void>,
): Printed<A, T> {
  const work = async (ctx: CommandContext, ...args: A): Promise<void> => {
    const value = await data(ctx.client, ...args);
    if (!ctx.json) return print(ctx, value, ...args);
    if (value !== undefined) ctx.io.json(value);
  };
  return Object.assign(work, { data });
}

/** The options every client command takes (program.ts adds them), and `--port` for those that take it. */
export interface ClientFlags {
  url?: string;
  port?: string;
  programme?: string;
  adminToken?: string;
  json?: boolean;
}

export interface OptionDeclaration {
  /** As commander takes it: `--limit <n>`, `--no-capture`, `--install [dir]`. */
  flags: string;
  description: string;
  /** Turns the text given into the value; throws InvalidArgumentError for a bad one. */
  parse?: (raw: string) => unknown;
  /** The command refuses to run without it. */
  required?: boolean;
  /** What the help says the default is. */
  defaultText?: string;
}

/** What a command that runs itself (start, skill, mcp) is given. */
export interface Local {
  io: Io;
  env: Record<string, string | undefined>;
  /** Every command declared, in order (the MCP server's tools come from them). */
  commands: readonly Declaration[];
  /** Runs `work` as a client command: the control client made from `flags`, refusals and exit codes told. */
  run(flags: ClientFlags, work: (ctx: CommandContext) => Promise<void>): Promise<void>;
}

export interface CommandDeclaration<F = ClientFlags> {
  kind: 'command';
  /** Its words after `card-sandbox`: `health`, `events list`, `webhooks faults set`. Those before the last name its group. */
  name: string;
  /** Its arguments, as commander takes them: `<eventId>`, `[duration]`. */
  args?: string;
  description: string;
  /** Each a command line after `$ card-sandbox`. */
  examples: string[];
  /** More help after the examples. */
  helpAfter?: string;
  /** Its own options, after the client options. */
  options?: OptionDeclaration[];
  /** Run when its group is named alone (`events` runs `events list`). */
  isDefault?: boolean;
  /** False for a command that does not talk to a sandbox: no --url, --admin-token, --programme or --json. */
  client?: boolean;
  /** False for a client command that acts on the sandbox, not on a programme: no --programme. */
  programme?: boolean;
  /**
   * A client command: checks the arguments (throwing UsageError) and returns the work to run with
   * the control client (program.ts's run(): a refusal exits 1, no sandbox 3).
   */
  run?(flags: F, ...args: string[]): (ctx: CommandContext) => Promise<void>;
  /** A command that runs itself. */
  action?(local: Local, flags: F, ...args: string[]): Promise<void> | void;
  tool?: ToolDeclaration;
}

/** A word that only groups commands (`events`, `webhooks faults`). */
export interface GroupDeclaration {
  kind: 'group';
  name: string;
  description: string;
}

export type Declaration = CommandDeclaration | GroupDeclaration;

/** Declares a command; `F` is its flags, the client options included. */
export const command = <F extends object = object>(declaration: Omit<CommandDeclaration<F & ClientFlags>, 'kind'>): CommandDeclaration =>
  ({ kind: 'command', ...declaration }) as CommandDeclaration;

export const group = (name: string, description: string): GroupDeclaration => ({ kind: 'group', name, description });

/** The tool's name: given, or the command's words joined by `_`. */
export const toolName = (declaration: CommandDeclaration): string => declaration.tool?.name ?? declaration.name.replace(/[ -]/g, '_');

/** The tools the commands declare, named, in the commands' order: the MCP server registers them before its own. */
export const commandTools = (commands: readonly Declaration[]): Tool[] =>
  commands.flatMap((d) => (d.kind === 'command' && d.tool ? [{ ...d.tool, name: toolName(d) }] : []));

/** `--port`, for the commands that find a sandbox by the port `start` was given. */
export const PORT_OPTION: OptionDeclaration = {
  flags: '--port <port>',
  description: 'the port the sandbox was started with (env CARD_SANDBOX_PORT, as for start)',
};

export const duration = (name: string) => (raw: string) => {
  const ms = parseDuration(raw);
  if (ms === undefined) throw new InvalidArgumentError(`${name} ${durationMistake(raw) ?? 'must be a duration such as 30s, 2m, 1m30s or PT1M'}`);
  return ms;
};

export const integer =
  (name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  (raw: string) => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };

export const positiveInt = (name: string) => integer(name, 1);
