/** The CLI entry point: parses argv and turns known failures into a message and exit code. */
import { CommanderError } from 'commander';
import { ConfigError } from '../config/index.js';
import { CommandExit } from './command.js';
import { createIo, type Io } from './io.js';
import { buildProgram, StartError, UsageError } from './program.js';

/**
 * Runs the CLI on `argv` (node, the script, then the arguments), printing to `io`, and resolves
 * with its exit code.
 */
export async function run(argv: string[], io: Io = createIo(), env: Record<string, string | undefined> = process.env): Promise<number> {
  const program = buildProgram(io, env);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    // Help and --version end with 0; every other complaint of commander's is bad usage.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof CommandExit) return error.code;
    if (error instanceof UsageError || error instanceof StartError || error instanceof ConfigError) {
      io.err(`${io.color.red('error')} ${error.message}`);
      return 2;
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      io.err(`${io.color.red('error')} the port is already in use: stop the other process or pass --port`);
      return 1;
    }
    io.err(`${io.color.red('error')} ${(error as Error).message}`);
    return 1;
  }
}

export async function main(argv: string[]): Promise<void> {
  const code = await run(argv);
  if (code !== 0) process.exitCode = code;
}
