import { request } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type RunningCli } from '../testing/spawn.js';

// The Host check on a real socket (docs/reliability.md: Reliability and security): `start` on loopback answers
// only loopback names and those of --allowed-hosts (CARD_SANDBOX_ALLOWED_HOSTS); bound to 0.0.0.0,
// as the Docker image's command binds it, also a Compose service's name.
const sandboxes: RunningCli[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.stop())));
const start = async (args: string[], env: Record<string, string> = {}) => {
  const sandbox = await startSandbox(args, env);
  sandboxes.push(sandbox);
  return sandbox;
};

/** GET /_sandbox/health with the Host header given, as a rebinding page's browser would send it. */
function health(url: string, host: string): Promise<{ status: number; code?: string; detail?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/_sandbox/health`, { headers: { Host: host } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        const { code, detail } = JSON.parse(text) as { code?: string; detail?: string };
        resolve({ status: res.statusCode!, code, detail });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

let loopback: RunningCli;
beforeAll(async () => {
  loopback = await start([]);
});

test('on loopback: localhost and loopback addresses, nothing else', async () => {
  const port = new URL(loopback.url).port;
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`]) expect((await health(loopback.url, host)).status, host).toBe(200);
  for (const host of [`evil.example:${port}`, `card-sandbox:${port}`, `192.168.1.5:${port}`]) {
    const res = await health(loopback.url, host);
    expect(res, host).toMatchObject({ status: 403, code: 'host_not_allowed' });
    expect(res.detail).toContain(`--allowed-hosts ${host.split(':')[0]}`);
  }
});

test('--allowed-hosts and CARD_SANDBOX_ALLOWED_HOSTS add names; all answers any', async () => {
  const flagged = await start(['--allowed-hosts', 'sandbox.ci.test,.svc.local']);
  expect((await health(flagged.url, 'sandbox.ci.test')).status).toBe(200);
  expect((await health(flagged.url, 'card-sandbox.ns.svc.local')).status).toBe(200);
  expect((await health(flagged.url, 'evil.example')).status).toBe(403);
  const open = await start([], { CARD_SANDBOX_ALLOWED_HOSTS: 'all' });
  expect((await health(open.url, 'evil.example')).status).toBe(200);
});

test("bound to 0.0.0.0, as the image's command binds it: a service name and an address too, still not a site's name", async () => {
  const container = await start(['--host', '0.0.0.0']);
  const port = new URL(container.url).port;
  for (const host of [`card-sandbox:${port}`, `localhost:${port}`, `172.18.0.3:${port}`]) expect((await health(container.url, host)).status, host).toBe(200);
  expect((await health(container.url, `evil.example:${port}`)).status).toBe(403);
});
