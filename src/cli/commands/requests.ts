/** `requests`: the journal of recent API requests, newest first, with what each was refused or warned for. */
import { faultNote } from '../../wire/fault-text.js';
import type { JournalEntry } from '../../client/control.generated.js';
import { z } from 'zod';
import type { Client } from '../client.js';
import { command, printed, tool } from '../command.js';

/** Replayed, each warning, the problem's code when it is not one of them, and the fault put on it (docs/api-faults.md: The API fault lab). */
const notes = (e: JournalEntry) =>
  [...new Set([e.replayed ? 'replayed' : '', ...e.warnings, e.problem?.code ?? '', e.fault ? faultNote(e.fault) : ''])].filter(Boolean).join('; ');

export const listRequests = printed(
  (client: Client) => client.listRequests(),
  ({ io }, entries) => {
    if (entries.length === 0) return io.out(io.color.dim('no API requests yet'));
    io.table(
      ['TIME', 'METHOD', 'PATH', 'STATUS', 'MS', 'NOTES'],
      entries.map((e) => [e.time, e.method, e.path, io.status(e.status === 0 ? 'no answer' : String(e.status)), String(e.durationMs), notes(e)]),
    );
  },
);

export const requestsCommand = command({
  name: 'requests',
  description: 'Show recent API requests (method, path, status, verification warnings), newest first',
  examples: ['requests', 'requests --json'],
  run: () => listRequests,
  tool: tool({
    description: 'The request journal: recent /v1 requests, newest first, with what each was refused or warned for.',
    input: { limit: z.number().int().min(1).optional(), refused: z.boolean().optional().describe('only those answered 4xx/5xx or not answered') },
    data: async (client, { limit, refused }) => (await listRequests.data(client)).filter((e) => !refused || e.status === 0 || e.status >= 400).slice(0, limit),
  }),
});
