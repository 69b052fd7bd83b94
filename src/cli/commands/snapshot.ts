/**
 * `snapshot save|list|restore|delete|export` (docs/snapshots.md): a programme's whole state taken,
 * put back, dropped, or written to a file that `snapshot restore --file` and `start --import` take.
 */
import { readBounded, readProblem, writeFileAtomic } from '../../kernel/files.js';
import { MAX_SNAPSHOT_FILE_BYTES } from '../../wire/limits.js';
import type { SnapshotSummary } from '../../client/control.generated.js';
import { z } from 'zod';
import { ClientUsageError, CommandFailed, type Client, type CommandContext } from '../client.js';
import { command, group, printed, tool, UsageError } from '../command.js';
import type { Io } from '../io.js';
import { count } from '../../domain/words.js';

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1_048_576 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1_048_576).toFixed(1)} MiB`;
const clock = ({ clock: { now, frozen } }: SnapshotSummary) => `${now}${frozen ? ' (frozen)' : ''}`;

/** One line of what a snapshot holds. */
export function holds(s: SnapshotSummary): string {
  const { customers, accounts, cards, events, deliveries, jobs, requests } = s.counts;
  const held = [
    count(customers, 'customer'),
    count(accounts, 'account'),
    count(cards, 'card'),
    count(events, 'event'),
    count(deliveries, 'delivery', 'deliveries'),
    count(jobs, 'job'),
    count(requests, 'request'),
  ];
  return `clock ${clock(s)}; ${held.join(', ')}; ${size(s.bytes)}`;
}

const done = (io: Io, text: string) => io.out(`${io.color.green('✓')} ${text}`);
const named = (io: Io, s: SnapshotSummary) => `${io.color.bold(s.id)}${s.name === s.id ? '' : ` (${s.name})`}`;

/** A snapshot file's bytes, at most what the sandbox takes (64 MiB); an unreadable file is the caller's mistake. */
export async function readSnapshotFile(file: string): Promise<Buffer> {
  try {
    return await readBounded(file, MAX_SNAPSHOT_FILE_BYTES);
  } catch (error) {
    throw new ClientUsageError(`cannot read the snapshot file ${file}: ${readProblem(error)}`);
  }
}

/**
 * The id of the programme's snapshot `ref` names: its id, or its name (names are unique in a
 * programme, docs/snapshots.md: The CLI). An unknown name fails the command; an unknown id is left for the sandbox to refuse.
 */
export async function snapshotId(client: Client, ref: string): Promise<string> {
  const snapshots = await client.listSnapshots();
  const found = snapshots.find((s) => s.id === ref) ?? snapshots.find((s) => s.name === ref);
  if (found) return found.id;
  if (UUID.test(ref)) return ref;
  throw new CommandFailed(`no snapshot of this programme is named "${ref}": \`card-sandbox snapshot list\` shows their ids and names`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const saveSnapshot = printed(
  (client: Client, name: string | undefined) => client.saveSnapshot(name === undefined ? {} : { name }),
  ({ io }, saved) => {
    done(io, `snapshot ${named(io, saved)} saved`);
    io.out(`  ${io.color.dim(holds(saved))}`);
  },
);

export const listSnapshots = printed(
  (client: Client) => client.listSnapshots(),
  ({ io }, snapshots) =>
    io.table(
      ['ID', 'NAME', 'CLOCK', 'CUSTOMERS', 'CARDS', 'EVENTS', 'SIZE', 'TAKEN'],
      snapshots.map((s) => [s.id, s.name, clock(s), String(s.counts.customers), String(s.counts.cards), String(s.counts.events), size(s.bytes), s.createdAt]),
    ),
);

/** Puts the programme back as snapshot `id` holds it, or as a snapshot file does. */
export const restoreSnapshot = printed(
  async (client: Client, from: { id: string } | { file: string }) =>
    'id' in from ? client.restoreSnapshot(await snapshotId(client, from.id)) : client.restoreSnapshotFile(await readSnapshotFile(from.file)),
  ({ io }, restored, from) => {
    done(io, `programme restored from snapshot ${named(io, restored)}${'file' in from ? ` in ${from.file}` : ''}`);
    io.out(`  ${io.color.dim(holds(restored))}`);
  },
);

export const deleteSnapshot = printed(
  async (client: Client, ref: string) => {
    const id = await snapshotId(client, ref);
    await client.deleteSnapshot(id);
    return { deleted: id };
  },
  ({ io }, { deleted }, ref) => done(io, `snapshot ${io.color.bold(deleted)}${ref === deleted ? '' : ` (${ref})`} deleted`),
);

/** Writes the file of the snapshot `ref` names (its id or name) to `out`, or to stdout. */
export async function exportSnapshot({ client, io, json }: CommandContext, ref: string, out: string | undefined): Promise<void> {
  const id = await snapshotId(client, ref);
  const file = await (await client.open('getSnapshotFile', id)).text();
  if (out === undefined) return io.out(file);
  await writeFileAtomic(out, file);
  const bytes = Buffer.byteLength(file);
  if (json) return io.json({ id, file: out, bytes });
  done(io, `snapshot ${io.color.bold(id)} written to ${out} (${size(bytes)})`);
}

const snapshotRef = z.string().describe("the snapshot's id or name");

// Snapshots (docs/snapshots.md).
export const snapshotCommands = [
  group('snapshot', "Snapshots: a programme's whole state — world, clock, queues, faults, journal — saved, put back, forked or carried as a file"),
  command<{ name?: string }>({
    name: 'snapshot save',
    description: 'Take a snapshot of the programme and keep it in the sandbox',
    examples: ['snapshot save', 'snapshot save --name golden --json'],
    options: [{ flags: '--name <name>', description: 'a name to tell it by, unique in the programme (default: its id)' }],
    run: (flags) => (ctx) => saveSnapshot(ctx, flags.name),
    tool: tool({
      description:
        "Take a snapshot of the programme's whole state — world, clock, queues and retries, faults, journal — kept in the sandbox, to restore or fork from.",
      input: { name: z.string().optional() },
      data: (client, { name }) => saveSnapshot.data(client, name),
    }),
  }),
  command({
    name: 'snapshot list',
    description: "List the programme's snapshots, oldest first",
    examples: ['snapshot list', 'snapshot list --json'],
    isDefault: true,
    run: () => listSnapshots,
    tool: { description: "The programme's snapshots, oldest first.", input: {}, data: (client) => listSnapshots.data(client) },
  }),
  command<{ file?: string }>({
    name: 'snapshot restore',
    args: '[id|name]',
    description: 'Put the programme back as a snapshot holds it (what was scheduled since is gone), or as a snapshot file does',
    examples: ['snapshot restore <id>', 'snapshot restore golden', 'snapshot restore --file world.snapshot.json'],
    options: [{ flags: '--file <file>', description: 'a snapshot file, as `snapshot export` writes it' }],
    run: (flags, id?: string) => {
      const from = id !== undefined ? { id } : flags.file !== undefined ? { file: flags.file } : undefined;
      if (from === undefined || (id !== undefined && flags.file !== undefined)) throw new UsageError('give a snapshot id or name, or --file <file>');
      return (ctx) => restoreSnapshot(ctx, from);
    },
    tool: tool({
      description: 'Put the programme back as a snapshot holds it; what was scheduled since is gone, credentials stay.',
      input: { id: snapshotRef },
      data: (client, { id }) => restoreSnapshot.data(client, { id }),
    }),
  }),
  command({
    name: 'snapshot delete',
    args: '<id|name>',
    description: 'Delete a snapshot',
    examples: ['snapshot delete <id>', 'snapshot delete golden'],
    run: (_flags, id) => (ctx) => deleteSnapshot(ctx, id),
    tool: tool({ description: 'Delete a snapshot.', input: { id: snapshotRef }, data: (client, { id }) => deleteSnapshot.data(client, id) }),
  }),
  command<{ out?: string }>({
    name: 'snapshot export',
    args: '<id|name>',
    description: 'Write a snapshot as a portable file, for `snapshot restore --file` or `start --import`',
    examples: ['snapshot export <id> --out world.snapshot.json', 'snapshot export golden > world.snapshot.json'],
    options: [{ flags: '--out <file>', description: 'the file to write (default: stdout)' }],
    run: (flags, id) => (ctx) => exportSnapshot(ctx, id, flags.out),
  }),
];
