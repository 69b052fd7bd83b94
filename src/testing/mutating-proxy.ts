/**
 * A small HTTP proxy for parity's tests: it forwards every request to an upstream as it came (the
 * Host header too, so that request signatures still verify there) and hands each JSON answer to the
 * rules that match it, which may change its status or body before it goes back. Not shipped.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedAnswer {
  status: number;
  /** The parsed JSON body; undefined for an empty or non-JSON one. */
  body: unknown;
}

export interface Mutation {
  method: string;
  /** Matched against the path without the query. */
  path: RegExp;
  /** Changes the answer in place; `at` is when the answer came back (performance.now()). */
  apply(answer: ProxiedAnswer, at: number, path: string): void;
}

export interface MutatingProxy {
  url: string;
  /** Each mutation's how many times it applied, by its index. */
  applied: number[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export async function startMutatingProxy(upstream: string, mutations: Mutation[]): Promise<MutatingProxy> {
  const target = new URL(upstream);
  const applied = mutations.map(() => 0);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers as IncomingHttpHeaders },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            let text = Buffer.concat(parts).toString('utf8');
            let status = answer.statusCode ?? 502;
            const path = (req.url ?? '/').split('?')[0]!;
            const matching = mutations.map((m, i) => [m, i] as const).filter(([m]) => m.method === req.method && m.path.test(path));
            if (matching.length > 0) {
              let body: unknown;
              try {
                body = text === '' ? undefined : JSON.parse(text);
              } catch {
                body = undefined;
              }
              const proxied = { status, body };
              for (const [m, i] of matching) {
                const before = JSON.stringify(proxied);
                m.apply(proxied, performance.now(), path);
                if (JSON.stringify(proxied) !== before) applied[i]!++;
              }
              status = proxied.status;
              if (proxied.body !== undefined) text = JSON.stringify(proxied.body);
            }
            const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
            res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
            res.end(text);
          });
        },
      );
      forward.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    applied,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
