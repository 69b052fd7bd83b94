/**
 * Every command of the CLI, declared in one place. Each command's work is a plain function in
 * `commands/<verb>.ts`; this file only maps flags to arguments.
 */
import { Command, Option } from 'commander';
import { ConfigError, OPTIONS, resolveConfig, type Config } from '../config.js';
import { version } from '../version.js';
import { start, StartError } from './commands/start.js';
import type { Io } from './io.js';

export class UsageError extends Error {}

export function buildProgram(io: Io, env: Record<string, string | undefined> = process.env): Command {
  const program = new Command('card-sandbox')
    .description('A local, stateful emulator of a card-issuance programme API, with signed webhooks and time travel.')
    .version(version(), '-v, --version')
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  const startCommand = program
    .command('start')
    .description('Start the sandbox (API on /v1, control plane on /_sandbox)')
    .addHelpText('after', `
Examples:
  $ card-sandbox start
  $ card-sandbox start --port 5000 --verify strict --db ./sandbox.db
  $ card-sandbox start --clock 2026-01-01T00:00:00Z --seed fixtures/demo.json

Every flag can also be set with its environment variable (flags win):
${OPTIONS.map((o) => `  ${o.env.padEnd(30)} ${o.flag.split(' ')[0]}`).join('\n')}`);
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
    const stop = (signal: string) => {
      io.err(`\n${signal}: shutting down…`);
      void running.close().then(() => process.exit(0));
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });

  return program;
}

export { StartError };
