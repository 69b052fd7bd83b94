/** `reset`: wipe the running sandbox's world (credentials and keys stay). */
import type { CommandContext } from '../client.js';

export async function reset({ client, io, json }: CommandContext): Promise<void> {
  const result = await client.reset();
  if (json) return io.json(result);
  const wiped = Object.entries(result.wiped).filter(([, n]) => n > 0);
  io.out(`${io.color.green('✓')} sandbox reset${wiped.length ? `, wiped ${wiped.map(([name, n]) => `${name}: ${n}`).join(', ')}` : ' (it was already empty)'}`);
}
