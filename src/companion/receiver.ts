/**
 * A webhook receiver for tests (docs/companion.md: Helpers for your tests): a loopback HTTP server that
 * subscribes itself with PUT /v1/webhooks, checks every delivery's digest and signature against
 * the key GET /v1/webhooks/verification-key publishes (`verifyWebhook`), keeps the verified events
 * once each (deliveries are at least once: `eventId` tells repeats apart), and answers anything
 * that does not verify with 400, keeping it aside as refused. It tells the sandbox it kept each
 * event once (`Sandbox-Processed`, docs/go-live.md: Telling the sandbox what your receiver did).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ApiClient } from '../client/create-client.js';
import { publicKeyOf, verifyWebhook } from '../client/sign.js';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import type { WebhookEvent, WebhookEventType } from '../client/webhook-event.js';
import { arrived, awaited, DEFAULT_TIMEOUT_MS, WaitTimeoutError, type EventPredicate, type WaitOptions } from './waiting.js';

export interface ReceiverOptions {
  /** The types to subscribe to; every event type by default. */
  types?: WebhookEventType[];
  /** The address to listen on; 127.0.0.1 by default (0.0.0.0 for a sandbox in a container). */
  host?: string;
  /** The host name the sandbox reaches this machine by (e.g. host.docker.internal); `host` by default. */
  callbackHost?: string;
}

export interface RefusedDelivery {
  /** What failed: the digest, the signature, its age… */
  reason: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  /** The callbackUrl it subscribed. */
  readonly url: string;
  /** The id of its webhook subscription. */
  readonly webhookId: string;
  /** The verified events, in the order they first arrived. */
  readonly events: WebhookEvent[];
  /** Deliveries that did not verify (answered 400). */
  readonly refused: RefusedDelivery[];
  /** The first verified event of `type` (matching `predicate`), received already or within the timeout. */
  waitFor<T extends WebhookEventType>(type: T, predicate?: EventPredicate<T>, options?: WaitOptions): Promise<WebhookEvent<T>>;
  /** Subscribes again (after a reset wiped the subscription) and forgets what it received. */
  resubscribe(): Promise<void>;
  /** Unsubscribes (unless `unsubscribe: false`) and stops listening. */
  close(options?: { unsubscribe?: boolean }): Promise<void>;
}

export async function startReceiver(client: ApiClient, options: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const types = options.types ?? [...WEBHOOK_TYPES];
  const host = options.host ?? '127.0.0.1';
  // Read once: every delivery is checked against it.
  const key = publicKeyOf((await client.getWebhookVerificationKey()).key);
  const events: WebhookEvent[] = [];
  const refused: RefusedDelivery[] = [];
  const seen = new Set<string>();
  const wakers = new Set<() => void>();
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const event = verifyWebhook<WebhookEvent>({ method: req.method, path: req.url ?? '/', headers: req.headers, body, key });
        if (!seen.has(event.eventId)) {
          seen.add(event.eventId);
          events.push(event);
        }
        // Kept once, however often it came: the report's duplicates check reads this.
        res.writeHead(200, { 'Sandbox-Processed': '1' }).end();
      } catch (error) {
        refused.push({ reason: (error as Error).message, headers: req.headers, body: body.toString('utf8') });
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end((error as Error).message);
      }
      for (const wake of wakers) wake();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const shownHost = options.callbackHost ?? (host === '0.0.0.0' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);
  const url = `http://${shownHost}:${port}/webhooks`;

  const subscribe = async () => (await client.saveWebhook({ callbackUrl: url, types })).id;
  let webhookId: string;
  try {
    webhookId = await subscribe();
  } catch (error) {
    server.close();
    throw error;
  }

  return {
    url,
    get webhookId() {
      return webhookId;
    },
    events,
    refused,

    waitFor<T extends WebhookEventType>(type: T, predicate?: EventPredicate<T>, { timeout = DEFAULT_TIMEOUT_MS }: WaitOptions = {}) {
      const find = () => (events as unknown as WebhookEvent<T>[]).find((e) => e.webhookType === type && (predicate === undefined || predicate(e)));
      return new Promise<WebhookEvent<T>>((resolve, reject) => {
        const settle = (settled: () => void) => {
          wakers.delete(check);
          clearTimeout(timer);
          settled();
        };
        const check = () => {
          try {
            const found = find();
            if (found) settle(() => resolve(found));
          } catch (error) {
            settle(() => reject(error as Error));
          }
        };
        const timer = setTimeout(() => {
          wakers.delete(check);
          const ofType = events.filter((e) => e.webhookType === type);
          const also = refused.length > 0 ? `; ${refused.length} deliveries refused (${refused.at(-1)!.reason})` : '';
          reject(
            new WaitTimeoutError(
              `the receiver at ${url} timed out after ${timeout} ms waiting for ${awaited(type, predicate)}: ${arrived(type, ofType)}${also}`,
            ),
          );
        }, timeout);
        wakers.add(check);
        check();
      });
    },

    async resubscribe() {
      if (!server.listening) return;
      events.length = 0;
      refused.length = 0;
      seen.clear();
      webhookId = await subscribe();
    },

    async close({ unsubscribe = true } = {}) {
      if (!server.listening) return;
      if (unsubscribe) await client.deleteWebhook(webhookId).catch(() => undefined);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
