/**
 * `health`: is the sandbox up and well? Exit 0 when it answers `status: ok`, 1 when it answers
 * otherwise, 3 when nothing answers (see program.ts). With a wait it keeps asking until the sandbox
 * is healthy or the wait is over, for scripts and container HEALTHCHECKs that start it first.
 */
import type { Health } from '../../client/control.generated.js';
import { UnreachableError } from '../../client/control.js';
import { ApiError } from '../../client/operations.js';
import { CommandFailed, type Client, type CommandContext } from '../client.js';
import { command, duration, PORT_OPTION } from '../command.js';

const POLL_MS = 200;

export async function health({ client, io, json }: CommandContext, waitMs = 0): Promise<void> {
  const state = await healthy(client, waitMs);
  if (json) return io.json(state);
  io.out(`${io.color.green('✓')} healthy ${client.url} ${io.color.dim(`(v${state.version}, env ${state.env}, verify ${state.verify}, clock ${state.clock})`)}`);
}

/** What `health --json` prints: the sandbox's health once it is ok; CommandFailed when it answers otherwise. */
export async function healthy(client: Client, waitMs = 0): Promise<Health> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      const state = await client.getHealth();
      if (state.status !== 'ok') throw new CommandFailed(`not healthy: the sandbox at ${client.url} reports status "${state.status}"`);
      return state;
    } catch (error) {
      const retry =
        (error instanceof ApiError || error instanceof UnreachableError || error instanceof CommandFailed) && performance.now() + POLL_MS < deadline;
      if (!retry) throw error;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

export const healthCommand = command<{ wait?: number }>({
  name: 'health',
  description: 'Check that the sandbox is up: exit 0 when healthy, 1 when it answers but is not, 3 when nothing answers',
  examples: ['health', 'health --port 5000', 'health --wait 30s'],
  options: [
    PORT_OPTION,
    { flags: '--wait <duration>', description: 'keep asking until it is healthy, for up to this long (e.g. 30s)', parse: duration('--wait') },
  ],
  run: (flags) => (ctx) => health(ctx, flags.wait),
  tool: { description: 'Is the sandbox up? Its version, env, verify mode and clock.', input: {}, data: (client) => healthy(client) },
});
