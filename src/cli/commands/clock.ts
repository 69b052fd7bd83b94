/** `clock` and `clock advance <duration>`: read and move the sandbox clock. */
import type { CommandContext } from '../client.js';

export async function showClock({ client, io, json }: CommandContext): Promise<void> {
  const clock = await client.getClock();
  if (json) return io.json(clock);
  io.out(`${io.color.bold(clock.now)} ${io.color.dim(clock.frozen ? '(frozen: moves only with `clock advance`)' : '(running)')}`);
}

export async function advanceClock({ client, io, json }: CommandContext, target: { by?: string | undefined; to?: string | undefined }): Promise<void> {
  // Neither given (no duration and no --to): the sandbox's refusal says what to give.
  const result = await client.advanceClock(target as { by: string } | { to: string });
  if (json) return io.json(result);
  io.out(`${io.color.green('✓')} clock now ${io.color.bold(result.now)}, ${result.ran} due item${result.ran === 1 ? '' : 's'} ran on the way`);
}
