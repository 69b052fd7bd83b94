/**
 * `health`: is the sandbox up and well? Exit 0 when it answers `status: ok`, 1 when it answers
 * otherwise, 3 when nothing answers (see program.ts). With a wait it keeps asking until the sandbox
 * is healthy or the wait is over, for scripts and container HEALTHCHECKs that start it first.
 */
import { UnreachableError } from '../../client/control.js';
import { ApiError } from '../../client/operations.js';
import { CommandFailed, type CommandContext } from '../client.js';

const POLL_MS = 200;

export async function health({ client, io, json }: CommandContext, waitMs = 0): Promise<void> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      const state = await client.getHealth();
      if (state.status !== 'ok') throw new CommandFailed(`not healthy: the sandbox at ${client.url} reports status "${state.status}"`);
      if (json) return io.json(state);
      io.out(
        `${io.color.green('✓')} healthy ${client.url} ${io.color.dim(`(v${state.version}, env ${state.env}, verify ${state.verify}, clock ${state.clock})`)}`,
      );
      return;
    } catch (error) {
      const retry =
        (error instanceof ApiError || error instanceof UnreachableError || error instanceof CommandFailed) && performance.now() + POLL_MS < deadline;
      if (!retry) throw error;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
