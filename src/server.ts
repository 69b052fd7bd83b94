/**
 * Running the sandbox: the only importer of @hono/node-server. Starts the scheduler, listens with
 * timeouts that stop a slow or silent client from holding a connection, prunes what retention
 * bounds, and shuts down cleanly (stop accepting, let in-flight work finish for up to 5 s, record
 * the webhook attempts still waiting, write --export-on-exit's file, close the database).
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo, Socket } from 'node:net';
import { createApp } from './app.js';
import { keepDotSegments } from './http/dot-segments.js';
import type { Deps } from './deps.js';
import { writeFileAtomicSync } from './kernel/files.js';

export interface RunningSandbox {
  url: string;
  port: number;
  deps: Deps;
  close(): Promise<void>;
  /** What the process should exit with once closed: 1 when --export-on-exit's file could not be written, else 0. */
  readonly exitCode: number;
}

export const SHUTDOWN_GRACE_MS = 5000;

export interface ServerLimits {
  /** A client must have sent its request line and headers within this long (a slowloris gets no more). */
  headersTimeoutMs: number;
  /** … and its whole request, body included, within this long. Responses (event streams) are not limited. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
}

export const SERVER_LIMITS: ServerLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 };

const MAY_HAVE_DOTS = /\.|%2e/i;

/** Retention also runs on this timer, so that quiet periods and event-less writes are pruned too. */
const PRUNE_EVERY_MS = 60_000;

/**
 * --export-on-exit: the default programme's snapshot file, written once nothing runs any more —
 * whole or not at all (kernel/files.ts), so that a kill in the middle leaves the previous file.
 * False when it could not be written: the process then exits 1.
 */
function exportOnExit(deps: Deps, file: string): boolean {
  try {
    writeFileAtomicSync(file, deps.snapshots.export(deps.programmes.default()));
    deps.log.info(`exported the default programme to ${file}`);
    return true;
  } catch (error) {
    deps.log.error(`--export-on-exit ${file}: the file could not be written (the previous one, if any, is as it was)`, {
      error: (error as NodeJS.ErrnoException).code ?? String(error),
    });
    return false;
  }
}

export async function startServer(deps: Deps, limits: Partial<ServerLimits> = {}): Promise<RunningSandbox> {
  // Listening comes first and the app is built straight after, before the event loop turns again:
  // a client that connects meanwhile waits in the accept queue, and is answered by the finished app
  // the moment it is built rather than at its next retry.
  let app: ReturnType<typeof createApp> | undefined;
  const { host, port } = deps.config;
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = { ...SERVER_LIMITS, ...limits };
  const serverOptions = {
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    // Node checks the two timeouts above only this often (30 s by default), which would stretch them.
    connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersTimeoutMs / 4)),
  };
  const server: ServerType = await new Promise((resolve, reject) => {
    const fetch = (request: Request, env: { incoming?: { url?: string } }) => {
      // Only a target with a dot segment is rebuilt (http/dot-segments.ts); every other one goes as it came.
      const target = env.incoming?.url;
      return app!.fetch(target !== undefined && MAY_HAVE_DOTS.test(target) ? keepDotSegments(request, target) : request, env);
    };
    const s = serve({ fetch, hostname: host, port, serverOptions }, () => resolve(s));
    s.once('error', reject);
  });
  try {
    app = createApp(deps);
  } catch (error) {
    server.close();
    throw error;
  }
  // Connections that have not made a request yet: Node's closeIdleConnections leaves them open, and
  // a client's pool may hold one ready (undici opens one after a stream it aborted), which would keep
  // close() waiting until that client gives up on it.
  const silent = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    silent.add(socket);
    socket.once('close', () => silent.delete(socket));
  });
  server.on('request', (request: { socket: Socket }) => silent.delete(request.socket));
  deps.programmes.start();
  const pruning = setInterval(() => {
    for (const { services } of deps.programmes.loaded()) {
      try {
        services.retention.prune();
      } catch (error) {
        deps.log.error('retention: pruning failed', { error: String(error) });
      }
    }
  }, PRUNE_EVERY_MS);
  pruning.unref();
  const actual = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  let exitCode = 0;
  return {
    url: `http://${shownHost}:${actual}`,
    port: actual,
    deps,
    get exitCode() {
      return exitCode;
    },
    close() {
      closing ??= (async () => {
        deps.programmes.stop();
        clearInterval(pruning);
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
          for (const socket of silent) socket.destroy();
        });
        // Attempts still in flight when the grace period ends are cut short and recorded as
        // failed before the database closes; both waits share the one grace period.
        await Promise.all([httpClosed, ...deps.programmes.loaded().map(({ services }) => services.webhooks.drain(SHUTDOWN_GRACE_MS))]);
        // The spans still waiting are sent, for as long as the grace period allows (docs/tracing.md: Tracing).
        if (deps.tracing) await Promise.race([deps.tracing.shutdown(), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
        if (deps.config.exportOnExit !== undefined && !exportOnExit(deps, deps.config.exportOnExit)) exitCode = 1;
        deps.shared.pool.agents.destroy();
        deps.store.close();
      })();
      return closing;
    },
  };
}
