/**
 * `programmes create|list|delete`: isolated sandboxes within the running one, each with its own
 * credentials, world and clock (docs/programmes.md: Parallel test suites), made afresh or from a snapshot.
 */
import type { NewProgramme } from '../../wire/programmes.js';
import type { CommandContext } from '../client.js';

export async function createProgramme({ client, io, json }: CommandContext, input: NewProgramme): Promise<void> {
  const created = await client.createProgramme(input);
  if (json) return io.json(created);
  const c = io.color;
  const row = (label: string, value: string) => io.out(`  ${c.dim(label.padEnd(11))} ${value}`);
  io.out(`${c.green('✓')} programme ${c.bold(created.id)} created${input.from === undefined ? '' : ` from snapshot ${input.from}`}`);
  row('name', created.name);
  row('API key', created.apiKey);
  row('API secret', `${created.apiSecret} ${c.dim('(shown once)')}`);
  row('clock', `${created.clock.now}${created.clock.frozen ? c.dim(' (frozen)') : ''}`);
  io.out(c.dim(`  its control plane: --programme ${created.id} or CARD_SANDBOX_PROGRAMME=${created.id}`));
}

export async function listProgrammes({ client, io, json }: CommandContext): Promise<void> {
  const programmes = await client.listProgrammes();
  if (json) return io.json(programmes);
  io.table(
    ['ID', 'NAME', 'CLOCK', 'API KEYS', 'CREATED'],
    programmes.map((p) => [p.id, p.name, `${p.clock.now}${p.clock.frozen ? ' (frozen)' : ''}`, p.apiKeys.join(', '), p.createdAt]),
  );
}

export async function deleteProgramme({ client, io, json }: CommandContext, id: string): Promise<void> {
  await client.deleteProgramme(id);
  if (json) return io.json({ deleted: id });
  io.out(`${io.color.green('✓')} programme ${io.color.bold(id)} deleted with everything it held`);
}
