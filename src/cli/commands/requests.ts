/**
 * `requests [--limit <n>] [--refused]`: the journal of recent API requests, newest first, with each
 * one's id (for `explain`) and what it was refused or warned for.
 */
import { faultNote } from '../../wire/fault-text.js';
import type { JournalEntry } from '../../client/control.generated.js';
import { z } from 'zod';
import type { Client } from '../client.js';
import { command, positiveInt, printed, tool } from '../command.js';

/** Replayed, each warning, the problem's code when it is not one of them, and the fault put on it (docs/api-faults.md: The API fault lab). */
const notes = (e: JournalEntry) =>
  [...new Set([e.replayed ? 'replayed' : '', ...e.warnings, e.problem?.code ?? '', e.fault ? faultNote(e.fault) : ''])].filter(Boolean).join('; ');

export interface RequestsFilter {
  /** At most this many, newest first. */
  limit?: number | undefined;
  /** Only those answered 4xx or 5xx, or not answered. */
  refused?: boolean | undefined;
}

const refused = (e: JournalEntry) => e.status === 0 || e.status >= 400;

export const listRequests = printed(
  async (client: Client, filter: RequestsFilter = {}) => (await client.listRequests()).filter((e) => !filter.refused || refused(e)).slice(0, filter.limit),
  ({ io }, entries, filter = {}) => {
    if (entries.length === 0) return io.out(io.color.dim(filter.refused ? 'no refused API requests' : 'no API requests yet'));
    io.table(
      ['TIME', 'METHOD', 'PATH', 'STATUS', 'MS', 'REQUEST ID', 'NOTES'],
      entries.map((e) => [e.time, e.method, e.path, io.status(e.status === 0 ? 'no answer' : String(e.status)), String(e.durationMs), e.requestId, notes(e)]),
    );
  },
);

export const requestsCommand = command<RequestsFilter>({
  name: 'requests',
  description: 'Show recent API requests (method, path, status, id, verification warnings), newest first; `explain <requestId>` tells why one was refused',
  examples: ['requests', 'requests --refused --limit 5', 'requests --json'],
  options: [
    { flags: '--limit <n>', description: 'at most this many', parse: positiveInt('--limit') },
    { flags: '--refused', description: 'only those answered 4xx or 5xx, or not answered' },
  ],
  run: (flags) => (ctx) => listRequests(ctx, { limit: flags.limit, refused: flags.refused }),
  tool: tool({
    description: 'The request journal: recent /v1 requests, newest first, with what each was refused or warned for.',
    input: { limit: z.number().int().min(1).optional(), refused: z.boolean().optional().describe('only those answered 4xx/5xx or not answered') },
    data: (client, filter) => listRequests.data(client, filter),
  }),
});
