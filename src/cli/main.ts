/** The CLI entry point: parses argv and turns known failures into a message and exit code. */
import { CommanderError } from 'commander';
import { ConfigError } from '../config/index.js';
import { createIo } from './io.js';
import { buildProgram, StartError, UsageError } from './program.js';

export async function main(argv: string[]): Promise<void> {
  const io = createIo();
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end with 0; every other complaint of commander's is bad usage.
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    if (error instanceof UsageError || error instanceof StartError || error instanceof ConfigError) {
      io.err(`${io.color.red('error')} ${error.message}`);
      process.exitCode = 2;
      return;
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      io.err(`${io.color.red('error')} the port is already in use: stop the other process or pass --port`);
      process.exitCode = 1;
      return;
    }
    io.err(`${io.color.red('error')} ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
