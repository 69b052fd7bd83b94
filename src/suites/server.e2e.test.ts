/**
 * The HTTP server on a real socket: a client that is slow or silent (slowloris) is answered 408
 * and disconnected once its headers or body are overdue, while other clients are answered all
 * along (the limits are shortened here; the defaults are SERVER_LIMITS, 10 s and 30 s); a client
 * that hangs up mid-body is its own bad request, not a failure of the sandbox.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/index.js';
import { buildDeps } from '../deps.js';
import { memoryLog } from '../kernel/log.js';
import { startServer, type RunningSandbox } from '../server.js';
import { until } from '../testing/wait.js';

describe('the HTTP server', () => {
  let running: RunningSandbox;
  const log = memoryLog();

  // Shortened, yet long enough that a busy machine sends a whole request within them.
  beforeAll(async () => {
    running = await startServer(buildDeps(defaultConfig({ port: 0, verify: 'off' }), { log }), { headersTimeoutMs: 2_000, requestTimeoutMs: 4_000 });
  });
  afterAll(() => running.close());

  /**
   * A raw connection that writes `first` once connected, then `drip` every 100 ms until the server
   * closes it; resolves with what the server sent. The drip starts only after `first` is written: on
   * a busy machine a drip queued before the connection is up would go out ahead of the request line.
   */
  const slowClient = (first: string, drip: string) =>
    new Promise<string>((resolve) => {
      let dripping: NodeJS.Timeout | undefined;
      const socket = net.connect(running.port, '127.0.0.1', () => {
        socket.write(first);
        if (drip) dripping = setInterval(() => socket.writable && socket.write(drip), 100);
      });
      let received = '';
      socket.on('data', (chunk) => (received += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(dripping);
        resolve(received);
      });
    });

  it('disconnects clients whose headers or body never finish, and answers others meanwhile', async () => {
    const silent = slowClient('', '');
    const slowHeaders = slowClient('GET /_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n');
    const slowBody = slowClient('PUT /v1/webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n', ' ');

    let answered = 0;
    let done = false;
    void Promise.all([silent, slowHeaders, slowBody]).then(() => (done = true));
    while (!done) {
      const res = await fetch(`${running.url}/_sandbox/health`);
      expect(res.status).toBe(200);
      await res.text();
      answered++;
    }
    expect(answered).toBeGreaterThan(0);
    expect(await slowHeaders).toMatch(/^HTTP\/1\.1 408 /);
    expect(await slowBody).toMatch(/^HTTP\/1\.1 408 /);
    expect(await silent).not.toMatch(/^HTTP\/1\.1 [^4]/);
  });

  it('counts a body cut short by the client (hang-up or broken chunking) as its bad request, not an internal error', async () => {
    const head = 'PUT /v1/webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n';
    const send = (text: string) =>
      new Promise<void>((resolve) => {
        const socket = net.connect(running.port, '127.0.0.1', () => socket.end(text));
        // Read what comes back, or the socket never sees the server's end and never closes.
        socket.resume();
        socket.on('error', () => undefined);
        socket.on('close', () => resolve());
      });
    const earlier = new Set(running.deps.journal.list().map((entry) => entry.requestId));
    await send(`${head}Content-Length: 50\r\n\r\n{}`);
    await send(`${head}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`);
    const journal = () => running.deps.journal.list().filter((entry) => !earlier.has(entry.requestId));
    await until(() => journal().length >= 2, 'both requests in the journal');
    expect(journal().map((entry) => entry.status)).toEqual([400, 400]);
    expect(log.lines.filter((line) => line.level === 'error')).toEqual([]);
  });
});
