/**
 * Running CLI client commands in-process against a test sandbox: a client whose fetch is the
 * app itself, and an Io that keeps what was printed (without colour). Not shipped.
 */
import { Writable } from 'node:stream';
import { createClient, type CommandContext } from '../cli/client.js';
import { createIo } from '../cli/io.js';
import type { TestSandbox } from './harness.js';

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
