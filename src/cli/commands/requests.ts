/** `requests`: the journal of recent API requests, newest first, with what each was refused or warned for. */
import { faultNote } from '../../wire/fault-text.js';
import type { JournalEntry } from '../../client/control.generated.js';
import type { CommandContext } from '../client.js';

/** Replayed, each warning, the problem's code when it is not one of them, and the fault put on it (docs/api-faults.md: The API fault lab). */
const notes = (e: JournalEntry) =>
  [...new Set([e.replayed ? 'replayed' : '', ...e.warnings, e.problem?.code ?? '', e.fault ? faultNote(e.fault) : ''])].filter(Boolean).join('; ');

export async function listRequests({ client, io, json }: CommandContext): Promise<void> {
  const entries = await client.listRequests();
  if (json) return io.json(entries);
  if (entries.length === 0) return io.out(io.color.dim('no API requests yet'));
  io.table(
    ['TIME', 'METHOD', 'PATH', 'STATUS', 'MS', 'NOTES'],
    entries.map((e) => [e.time, e.method, e.path, io.status(e.status === 0 ? 'no answer' : String(e.status)), String(e.durationMs), notes(e)]),
  );
}
