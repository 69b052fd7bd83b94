/** `clock` and `clock advance <duration>`: read and move the sandbox clock. */
import type { CommandContext } from '../client.js';

interface ClockState {
  now: string;
  frozen: boolean;
}

export async function showClock({ client, io, json }: CommandContext): Promise<void> {
  const clock = (await client.request<ClockState>('GET', '/clock'))!;
  if (json) return io.json(clock);
  io.out(`${io.color.bold(clock.now)} ${io.color.dim(clock.frozen ? '(frozen: moves only with `clock advance`)' : '(running)')}`);
}

export async function advanceClock({ client, io, json }: CommandContext, target: { by?: string | undefined; to?: string | undefined }): Promise<void> {
  const result = (await client.request<{ now: string; ran: number }>('POST', '/clock/advance', target))!;
  if (json) return io.json(result);
  io.out(`${io.color.green('✓')} clock now ${io.color.bold(result.now)}, ${result.ran} due item${result.ran === 1 ? '' : 's'} ran on the way`);
}
