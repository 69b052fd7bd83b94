/**
 * The program the declarations make (program.ts): each command under its words, in the order
 * declared, with the client options it should have and help that says what they do.
 */
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { fieldsNotInDetail } from './client.js';
import { createIo } from './io.js';
import { buildProgram, COMMANDS } from './program.js';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const program = buildProgram(createIo(sink(), sink(), { NO_COLOR: '1' }), {});
const at = (words: string) => words.split(' ').reduce<Command>((cmd, word) => cmd.commands.find((c) => c.name() === word)!, program);
const flags = (words: string) => at(words).options.map((o) => o.long);

describe('the program', () => {
  it('has every declared command, under its words', () => {
    for (const declaration of COMMANDS) expect(at(declaration.name)?.name(), declaration.name).toBe(declaration.name.split(' ').at(-1));
  });

  it('says where client commands look by default: the one sandbox running, else the default URL', () => {
    expect(at('clock').helpInformation().replace(/\s+/g, ' ')).toContain(
      '--url <url> the sandbox to talk to (env CARD_SANDBOX_URL; default: the one sandbox running on this machine, else http://127.0.0.1:4242)',
    );
  });

  it('offers --programme to commands that act on a programme, not to stop, which acts on the sandbox', () => {
    expect(flags('stop')).toEqual(['--url', '--admin-token', '--json', '--port']);
    expect(flags('reset')).toContain('--programme');
  });
});

describe('a refusal', () => {
  it('prints a field its detail already says once, and the others', () => {
    const single = {
      title: 'Invalid request',
      status: 400,
      detail: 'invalid body: to must be later than the sandbox clock',
      errors: [{ path: 'to', message: 'must be later than the sandbox clock' }],
    };
    expect(fieldsNotInDetail(single)).toEqual([]);
    const several = {
      title: 'Invalid request',
      status: 400,
      detail: 'invalid seed document: a, b',
      errors: [
        { path: 'a', message: 'x' },
        { path: 'b', message: 'y' },
      ],
    };
    expect(fieldsNotInDetail(several)).toEqual(several.errors);
    const placed = {
      title: 'Invalid snapshot',
      status: 400,
      detail: 'the snapshot file is invalid at state.clock: must be a number',
      errors: [{ path: 'state.clock', message: 'must be a number' }],
    };
    expect(fieldsNotInDetail(placed)).toEqual([]);
  });
});
