/**
 * Running the sandbox: the only importer of @hono/node-server. Starts the scheduler, listens,
 * and shuts down cleanly (stop accepting, let in-flight work finish for up to 5 s, close the
 * database).
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import type { Deps } from './deps.js';

export interface RunningSandbox {
  url: string;
  port: number;
  deps: Deps;
  close(): Promise<void>;
}

export const SHUTDOWN_GRACE_MS = 5000;

export async function startServer(deps: Deps): Promise<RunningSandbox> {
  const app = createApp(deps);
  const { host, port } = deps.config;
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s));
    s.once('error', reject);
  });
  deps.services.scheduler.start();
  deps.services.scheduler.kick();
  const actual = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${actual}`,
    port: actual,
    deps,
    close() {
      closing ??= (async () => {
        deps.services.scheduler.stop();
        const httpClosed = new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            resolve();
          }, SHUTDOWN_GRACE_MS);
          timer.unref();
          server.close(() => {
            clearTimeout(timer);
            resolve();
          });
          if ('closeIdleConnections' in server) server.closeIdleConnections();
        });
        // Attempts in flight are recorded before the database closes, or sent again on the next
        // start; both waits share the one grace period.
        await Promise.all([httpClosed, deps.services.webhooks.drain(SHUTDOWN_GRACE_MS)]);
        deps.store.close();
      })();
      return closing;
    },
  };
}
