/**
 * `programmes create|list|delete`: isolated sandboxes within the running one, each with its own
 * credentials, world and clock (docs/programmes.md: Parallel test suites), made afresh or from a snapshot.
 */
import { z } from 'zod';
import { ApiError } from '../../client/operations.js';
import type { NewProgramme } from '../../wire/programmes.js';
import type { Client } from '../client.js';
import { command, group, integer, printed, tool } from '../command.js';
import { snapshotId } from './snapshot.js';

export const createProgramme = printed(
  // A snapshot by its id or, as restore, export and delete take it, by its name (docs/snapshots.md: The CLI).
  async (client: Client, input: NewProgramme) =>
    client.createProgramme(input.from === undefined ? input : { ...input, from: await snapshotId(client, input.from) }),
  ({ io }, created, input) => {
    const c = io.color;
    const row = (label: string, value: string) => io.out(`  ${c.dim(label.padEnd(11))} ${value}`);
    io.out(`${c.green('✓')} programme ${c.bold(created.id)} created${input.from === undefined ? '' : ` from snapshot ${input.from}`}`);
    row('name', created.name);
    row('API key', created.apiKey);
    row('API secret', `${created.apiSecret} ${c.dim('(shown once)')}`);
    row('clock', `${created.clock.now}${created.clock.frozen ? c.dim(' (frozen)') : ''}`);
    row('hold expiry', created.holdExpiry);
    row('balance', `${created.startingBalance} ${c.dim('(a new account starts with)')}`);
    io.out(c.dim(`  its control plane: --programme ${created.id} or CARD_SANDBOX_PROGRAMME=${created.id}`));
  },
);

export const listProgrammes = printed(
  (client: Client) => client.listProgrammes(),
  ({ io }, programmes) =>
    io.table(
      ['ID', 'NAME', 'CLOCK', 'API KEYS', 'CREATED'],
      programmes.map((p) => [p.id, p.name, `${p.clock.now}${p.clock.frozen ? ' (frozen)' : ''}`, p.apiKeys.join(', '), p.createdAt]),
    ),
);

export const deleteProgramme = printed(
  async (client: Client, id: string) => {
    try {
      await client.deleteProgramme(id);
    } catch (error) {
      // The sandbox names its route; from the terminal, the command is the way.
      if (!(error instanceof ApiError && error.code === 'default_programme' && error.problem)) throw error;
      const problem = { ...error.problem, detail: 'the default programme cannot be deleted; wipe its world with `card-sandbox reset`' };
      throw new ApiError(error.operation, error.method, error.path, error.status, problem, JSON.stringify(problem));
    }
    return { deleted: id };
  },
  ({ io }, _answer, id) => io.out(`${io.color.green('✓')} programme ${io.color.bold(id)} deleted with everything it held`),
);

export const programmesCommands = [
  group('programmes', 'Programmes: isolated sandboxes in this one, each with its own credentials, world and clock'),
  command<{ name?: string; clock?: string; randomSeed?: number; from?: string; holdExpiry?: string; startingBalance?: string }>({
    name: 'programmes create',
    description: 'Create a programme; prints its id and, once, its API key and secret',
    examples: [
      'programmes create',
      'programmes create --name worker-1 --clock 2026-01-01T00:00:00Z --json',
      'programmes create --from golden',
      'programmes create --starting-balance 100',
    ],
    options: [
      { flags: '--name <name>', description: 'a name to tell it by (default: its id)' },
      { flags: '--clock <time>', description: 'start its clock frozen at this instant (`now` or ISO 8601); running real time otherwise' },
      { flags: '--random-seed <n>', description: 'draw its ids and randomness from this seed', parse: integer('--random-seed', 0, 2 ** 32 - 1) },
      { flags: '--from <snapshot>', description: "start from a snapshot's world and clock, by its id or name (a fork; its clock and seed are the snapshot's)" },
      { flags: '--hold-expiry <duration>', description: 'how long its holds wait to be captured before they are released (default: start --hold-expiry)' },
      {
        flags: '--starting-balance <amount>',
        description: "the balance its new accounts start with, in each one's currency (default: start --starting-balance)",
      },
    ],
    run: (flags) => (ctx) =>
      createProgramme(ctx, {
        name: flags.name,
        clock: flags.clock,
        randomSeed: flags.randomSeed,
        from: flags.from,
        holdExpiry: flags.holdExpiry,
        startingBalance: flags.startingBalance,
      }),
    tool: tool({
      description: "A programme of its own: credentials, clock, world — or a snapshot's world and clock, with from.",
      input: {
        name: z.string().optional(),
        clock: z.string().optional().describe('freeze its clock here: now or an instant'),
        randomSeed: z.number().int().optional(),
        from: z.string().optional().describe('a snapshot id or name: start from its world and clock'),
        holdExpiry: z.string().optional().describe('how long its holds wait to be captured: 7d, 36h'),
        startingBalance: z.string().optional().describe('the balance its new accounts start with: 100'),
      },
      data: (client, input) => createProgramme.data(client, input),
    }),
  }),
  command({
    name: 'programmes list',
    description: 'List the programmes, the default one first',
    examples: ['programmes list', 'programmes list --json'],
    isDefault: true,
    run: () => listProgrammes,
    tool: { description: 'The programmes.', input: {}, data: (client) => listProgrammes.data(client) },
  }),
  command({
    name: 'programmes delete',
    args: '<id>',
    description: 'Delete a programme and everything it holds; its pending webhooks are never sent',
    examples: ['programmes delete <id>'],
    run: (_flags, id) => (ctx) => deleteProgramme(ctx, id),
    tool: tool({ description: 'Delete a programme and all it holds.', input: { id: z.string() }, data: (client, { id }) => deleteProgramme.data(client, id) }),
  }),
];
