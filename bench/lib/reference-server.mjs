/**
 * The reference servers, each run as its own process like the sandbox, answering every request
 * with response bytes they hold in memory (sent by reference.mjs over IPC):
 *   node  — a plain node:http server: the ceiling;
 *   hono  — one Hono route on @hono/node-server, the sandbox's own HTTP stack with none of its
 *           work, which shows how much of the gap to the ceiling the stack itself accounts for.
 */
import http from 'node:http';

const [kind] = process.argv.slice(2);

async function listen(bytes, headers) {
  if (kind === 'hono') {
    const [{ Hono }, { serve }] = await Promise.all([import('hono'), import('@hono/node-server')]);
    const app = new Hono();
    app.all('*', (c) => c.body(bytes, 200, headers));
    return new Promise((resolve) => {
      const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve({ server, port: info.port }));
    });
  }
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { ...headers, 'Content-Length': String(bytes.length) });
    res.end(bytes);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port })));
}

process.once('message', async ({ body, contentType }) => {
  const { server, port } = await listen(Buffer.from(body, 'utf8'), { 'Content-Type': contentType });
  process.send({ port });
  process.once('disconnect', () => server.close(() => process.exit(0)));
});
