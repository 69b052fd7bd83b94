/**
 * `snapshot save|list|restore|delete|export` (docs/snapshots.md): a programme's whole state taken,
 * put back, dropped, or written to a file that `snapshot restore --file` and `start --import` take.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Deps } from '../../deps.js';
import { SandboxError } from '../../domain/errors.js';
import type { SnapshotSummary } from '../../client/control.generated.js';
import { ClientUsageError, type CommandContext } from '../client.js';
import type { Io } from '../io.js';

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1_048_576 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1_048_576).toFixed(1)} MiB`;
const clock = ({ clock: { now, frozen } }: SnapshotSummary) => `${now}${frozen ? ' (frozen)' : ''}`;

/** One line of what a snapshot holds. */
function holds(s: SnapshotSummary): string {
  const { customers, accounts, cards, events, deliveries, jobs, requests } = s.counts;
  return `clock ${clock(s)}; ${customers} customers, ${accounts} accounts, ${cards} cards, ${events} events, ${deliveries} deliveries, ${jobs} jobs, ${requests} requests; ${size(s.bytes)}`;
}

const done = (io: Io, text: string) => io.out(`${io.color.green('✓')} ${text}`);
const named = (io: Io, s: SnapshotSummary) => `${io.color.bold(s.id)}${s.name === s.id ? '' : ` (${s.name})`}`;

/** A snapshot file's bytes; an unreadable file is the caller's mistake. */
async function readSnapshotFile(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new ClientUsageError(`cannot read the snapshot file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export async function saveSnapshot({ client, io, json }: CommandContext, name: string | undefined): Promise<void> {
  const saved = await client.saveSnapshot(name === undefined ? {} : { name });
  if (json) return io.json(saved);
  done(io, `snapshot ${named(io, saved)} saved`);
  io.out(`  ${io.color.dim(holds(saved))}`);
}

export async function listSnapshots({ client, io, json }: CommandContext): Promise<void> {
  const snapshots = await client.listSnapshots();
  if (json) return io.json(snapshots);
  io.table(
    ['ID', 'NAME', 'CLOCK', 'CUSTOMERS', 'CARDS', 'EVENTS', 'SIZE', 'TAKEN'],
    snapshots.map((s) => [s.id, s.name, clock(s), String(s.counts.customers), String(s.counts.cards), String(s.counts.events), size(s.bytes), s.createdAt]),
  );
}

/** Puts the programme back as snapshot `id` holds it, or as a snapshot file does. */
export async function restoreSnapshot({ client, io, json }: CommandContext, from: { id: string } | { file: string }): Promise<void> {
  const restored = 'id' in from ? await client.restoreSnapshot(from.id) : await client.restoreSnapshotFile(await readSnapshotFile(from.file));
  if (json) return io.json(restored);
  done(io, `programme restored from snapshot ${named(io, restored)}${'file' in from ? ` in ${from.file}` : ''}`);
  io.out(`  ${io.color.dim(holds(restored))}`);
}

export async function deleteSnapshot({ client, io, json }: CommandContext, id: string): Promise<void> {
  await client.deleteSnapshot(id);
  if (json) return io.json({ deleted: id });
  done(io, `snapshot ${io.color.bold(id)} deleted`);
}

/** Writes snapshot `id`'s file to `out`, or to stdout. */
export async function exportSnapshot({ client, io, json }: CommandContext, id: string, out: string | undefined): Promise<void> {
  const file = await (await client.open('getSnapshotFile', id)).text();
  if (out === undefined) return io.out(file);
  await writeFile(out, file);
  const bytes = Buffer.byteLength(file);
  if (json) return io.json({ id, file: out, bytes });
  done(io, `snapshot ${io.color.bold(id)} written to ${out} (${size(bytes)})`);
}

/**
 * `start --import <file>`: the default programme restored from a snapshot file before the server
 * listens. Throws ClientUsageError, naming what is wrong, when the file cannot be restored.
 */
export async function importAtStart(deps: Deps, file: string): Promise<string> {
  const bytes = await readSnapshotFile(file);
  try {
    const restored = await deps.snapshots.restoreFile(deps.programmes.default(), bytes);
    return `${file}: snapshot ${restored.name === restored.id ? restored.id : `"${restored.name}"`}, ${holds(restored)}`;
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    const places = (error.errors ?? []).map((e) => `\n  ${e.path}: ${e.message}`).join('');
    throw new ClientUsageError(`--import ${file}: ${error.detail}${places}`);
  }
}
