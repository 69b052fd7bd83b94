/**
 * /_sandbox/requests (docs/control-plane.md: Time travel and the control plane): the programme's request journal,
 * newest first, and a Server-Sent Events stream of each API request as it is answered, and of a
 * reset that clears it.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../env.js';
import { sseStream } from './sse.js';

export function controlRequestRoutes(): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', (c) => c.json(c.get('programme').journal.list()));
  routes.get('/stream', (c) => {
    const { journal } = c.get('programme');
    return sseStream(c, (send) =>
      journal.subscribe({
        added: (entry) => send('request', entry.requestId, entry),
        // A reset wiped the journal and the world: a client reads them again.
        cleared: () => send('cleared', 'cleared', {}),
      }),
    );
  });
  return routes;
}
