/** `requests`: the journal of recent API requests, newest first. */
import type { JournalEntry } from '../../journal.js';
import type { CommandContext } from '../client.js';

export async function listRequests({ client, io, json }: CommandContext): Promise<void> {
  const entries = (await client.request<JournalEntry[]>('GET', '/requests'))!;
  if (json) return io.json(entries);
  if (entries.length === 0) return io.out(io.color.dim('no API requests yet'));
  io.table(
    ['TIME', 'METHOD', 'PATH', 'STATUS', 'MS', 'NOTES'],
    entries.map((e) => [e.time, e.method, e.path, io.status(String(e.status)), String(e.durationMs), [e.replayed ? 'replayed' : '', ...e.warnings].filter(Boolean).join('; ')]),
  );
}
