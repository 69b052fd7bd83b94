/**
 * Running CLI commands in-process: client commands against a test sandbox, through a client whose
 * fetch is the app itself; or whole command lines through the CLI's own entry (cli/main.ts), against
 * a sandbox a test started, for tests about what a command does rather than about its process. An
 * Io keeps what was printed (without colour). Not shipped.
 */
import { Writable } from 'node:stream';
import { createClient, type CommandContext } from '../cli/client.js';
import { createIo } from '../cli/io.js';
import { run } from '../cli/main.js';
import type { TestSandbox } from './harness.js';
import type { Run } from './spawn.js';

function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

export function cliContext(
  sb: TestSandbox,
  options: { json?: boolean; adminToken?: string; programme?: string; terminal?: boolean } = {},
): CommandContext & { stdout: () => string; stderr: () => string } {
  const out = sink();
  const err = sink();
  // A terminal: progress is shown on stderr as it would be on a TTY.
  if (options.terminal) Object.assign(err.stream, { isTTY: true });
  const client = createClient(
    {
      url: 'http://127.0.0.1:4242',
      ...(options.adminToken ? { adminToken: options.adminToken } : {}),
      ...(options.programme ? { programme: options.programme } : {}),
    },
    (input, init) => Promise.resolve(sb.app.request(input, init)),
  );
  return {
    client,
    io: createIo(out.stream, err.stream, { NO_COLOR: '1' }),
    json: options.json ?? false,
    programme: options.programme,
    stdout: out.text,
    stderr: err.text,
  };
}

/**
 * `card-sandbox <args>` run to its end in this process: its exit code and what it printed. Like
 * spawnCli, only what the test passes in `env` configures it (no CARD_SANDBOX_* of the test's own).
 */
export async function runCommand(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const out = sink();
  const err = sink();
  const vars = { NO_COLOR: '1', ...env };
  const code = await run(['node', 'card-sandbox', ...args], createIo(out.stream, err.stream, vars), vars);
  return { code, stdout: out.text(), stderr: err.text() };
}
