/**
 * /_sandbox/requests (docs/control-plane.md: Time travel and the control plane): the programme's request journal,
 * newest first, and a Server-Sent Events stream of each API request as it is answered, and of a
 * reset that clears it.
 */
import { z } from 'zod';
import { JournalEntry } from '../../wire/journal.js';
import { controlRoute } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { jsonResponse } from '../schemas.js';
import { sseStream, STREAM_HEADERS } from './sse.js';
import { answer } from '../answer.js';

const tags: [string] = ['Requests'];

export function controlRequestRoutes(control: ControlPlane): void {
  controlRoute(
    control,
    {
      method: 'get',
      path: '/requests',
      operationId: 'listRequests',
      summary: 'The request journal, newest first',
      tags,
      responses: { 200: jsonResponse(z.array(JournalEntry)) },
    },
    (c) => answer(c, c.get('programme').journal.list()),
  );
  controlRoute(
    control,
    {
      method: 'get',
      path: '/requests/stream',
      operationId: 'streamRequests',
      tags,
      summary: 'Server-Sent Events: `request` for each API request as it is answered, `cleared` when a reset or a restore replaces the journal',
      responses: {
        200: {
          description: 'A stream of `request` and `cleared` messages',
          headers: STREAM_HEADERS,
          content: { 'text/event-stream': { schema: JournalEntry } },
        },
      },
    },
    (c) => {
      const { journal } = c.get('programme');
      return sseStream(c, (send) =>
        journal.subscribe({
          added: (entry) => send('request', entry.requestId, entry),
          // A reset wiped the journal and the world: a client reads them again.
          cleared: () => send('cleared', 'cleared', {}),
        }),
      );
    },
  );
}
