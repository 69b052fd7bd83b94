/** `clock` and `clock advance <duration>`: read and move the sandbox clock. */
import { z } from 'zod';
import type { Client, CommandContext } from '../client.js';
import { command, printed, tool, UsageError } from '../command.js';
import { count } from '../../domain/words.js';

export const showClock = printed(
  (client: Client) => client.getClock(),
  ({ io }, clock) => io.out(`${io.color.bold(clock.now)} ${io.color.dim(clock.frozen ? '(frozen: moves only with `clock advance`)' : '(running)')}`),
);

type Target = { by?: string | undefined; to?: string | undefined };

/** How often a long advance is asked how far it has got. */
const PROGRESS_EVERY_MS = 250;

/**
 * Moves the clock; on a terminal (and not with --json), a count of the due items run so far while
 * a long advance runs (docs/cli.md: CLI).
 */
export async function advanceClock(ctx: CommandContext, target: Target): Promise<void> {
  const { client, io, json } = ctx;
  const work = advanceClock.data(client, target);
  const result = json || !io.live ? await work : await withProgress(ctx, work);
  if (json) return io.json(result);
  io.out(
    `${io.color.green('✓')} clock now ${io.color.bold(result.now)}, ${result.ran === 0 ? 'nothing fell due on the way' : `${count(result.ran, 'due item')} ran on the way`}`,
  );
}
/** What `clock advance --json` prints. */
// Neither given (no duration and no --to): the sandbox's refusal says what to give.
advanceClock.data = (client: Client, target: Target) => client.advanceClock(target as { by: string } | { to: string });

/** Shows how far the advance has got until `work` settles, then clears the line. */
async function withProgress<T>({ client, io }: CommandContext, work: Promise<T>): Promise<T> {
  let done = false;
  let wake = () => {};
  const polling = (async () => {
    for (;;) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, PROGRESS_EVERY_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (done) return;
      const advancing = (await client.getClock().catch(() => undefined))?.advancing;
      if (advancing && !done) io.progress(`advancing to ${advancing.to}: ${count(advancing.ran, 'due item')} ran so far…`);
    }
  })();
  try {
    return await work;
  } finally {
    done = true;
    wake();
    await polling;
    io.progress(undefined);
  }
}

export const clockCommands = [
  command({
    name: 'clock',
    description: 'Show the sandbox clock',
    examples: ['clock', 'clock advance 25h', 'clock advance P30D', 'clock advance --to 2027-01-01T00:00:00Z'],
    run: () => showClock,
    tool: { description: "The programme's sandbox time, and whether it is frozen.", input: {}, data: (client) => showClock.data(client) },
  }),
  command<{ to?: string }>({
    name: 'clock advance',
    args: '[duration]',
    description:
      'Move the clock forward (ISO 8601 `PT25H`, `P1M`, `P3Y` or `90s`, `25h`, `30d`, `1mo`, `1y`), running every job and webhook retry that falls due, in order',
    examples: ['clock advance 25h', 'clock advance PT90M', 'clock advance P1M', 'clock advance 1y', 'clock advance --to 2027-01-01T00:00:00Z'],
    options: [{ flags: '--to <instant>', description: 'advance to this future instant instead' }],
    run: (flags, duration?: string) => {
      if ((duration === undefined) === (flags.to === undefined)) throw new UsageError('give either a duration (e.g. 25h) or --to <instant>');
      return (ctx) => advanceClock(ctx, duration !== undefined ? { by: duration } : { to: flags.to });
    },
    tool: tool({
      description:
        'Move the sandbox clock forward, running every job and webhook retry that falls due, in order. Give by (25h, 30d, PT90M, P1M, 1y) or to (a future RFC 3339 instant).',
      input: {
        by: z.string().optional().describe('a duration: 25h, 30d, PT90M, P1M, 1y'),
        to: z.string().optional().describe('a future instant, 2027-01-01T00:00:00Z'),
      },
      data: (client, target) => advanceClock.data(client, target),
    }),
  }),
];
