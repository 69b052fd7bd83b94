/**
 * A real loopback HTTP receiver for webhook tests: records every request with its raw body bytes
 * and headers, and answers with a chosen status (and body) — or hangs, holding the connection
 * open. Not shipped.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HUNG_MS } from './wait.js';

export interface ReceivedRequest {
  method: string;
  /** Path and query as sent. */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A status code to answer with (with `{}` as JSON), a status with a body of its own, or 'hang' to never answer. */
export type Answer = number | { status: number; body: string | Buffer; contentType?: string } | 'hang';

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Connections currently open to the receiver. */
  readonly connections: number;
  /** Sets the answer for the requests that follow (a function decides per request). */
  answer(reply: Answer | ((request: ReceivedRequest) => Answer)): void;
  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startTestReceiver(initial: Answer = 200): Promise<Receiver> {
  let decide: (request: ReceivedRequest) => Answer = () => initial;
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(request);
      for (const wake of waiters) wake();
      const answer = decide(request);
      if (answer === 'hang') return;
      if (typeof answer === 'number') {
        res.writeHead(answer, { 'Content-Type': 'application/json' });
        res.end('{}');
        return;
      }
      res.writeHead(answer.status, answer.contentType === undefined ? {} : { 'Content-Type': answer.contentType });
      res.end(answer.body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return sockets.size;
    },
    answer(reply) {
      decide = typeof reply === 'function' ? reply : () => reply;
    },
    waitFor(count, timeoutMs = HUNG_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(requests.slice(0, count));
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the receiver got ${requests.length} requests, not ${count}, within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
