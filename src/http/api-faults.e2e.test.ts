/**
 * The API fault lab on a real socket (docs/api-faults.md: The API fault lab): a connection closed without an
 * answer, before the request did anything or after it committed, and latency that holds the
 * answer back at least as long as asked. The rest is routes/control-api-faults.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET, defaultConfig } from '../config/index.js';
import { buildDeps } from '../deps.js';
import { memoryLog } from '../kernel/log.js';
import { startServer, type RunningSandbox } from '../server.js';
import { testWallet } from '../testing/world.js';

const log = memoryLog();
let running: RunningSandbox;
let token: string;
beforeAll(async () => {
  running = await startServer(buildDeps(defaultConfig({ port: 0, verify: 'off' }), { log }));
  const auth = await fetch(`${running.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET }),
  });
  ({ token } = (await auth.json()) as { token: string });
});
afterAll(() => running.close());

const setFaults = (body: unknown) =>
  fetch(`${running.url}/_sandbox/api/faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const createCustomer = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${running.url}/v1/customers`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key, ...headers },
    body: JSON.stringify(body),
  });
const listCustomers = async () =>
  (await (await fetch(`${running.url}/v1/customers`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { id: string }[];
const journal = async () => (await (await fetch(`${running.url}/_sandbox/requests`)).json()) as { status: number; fault?: Record<string, unknown> }[];

test('reset closes the connection without an answer; after it committed, a retry with the same key gets the customer, once', async () => {
  await setFaults({
    rules: [
      { match: { operationId: 'createCustomer' }, reset: true, times: 1 },
      { match: { operationId: 'createCustomer' }, reset: true, effect: 'after', times: 1 },
    ],
  });
  const before = (await listCustomers()).length;
  const name = randomUUID();
  const body = { chainId: testWallet(name).chainId, externalId: name };
  const key = randomUUID();
  await expect(createCustomer(key, body)).rejects.toThrow('fetch failed');
  expect((await listCustomers()).length).toBe(before);
  await expect(createCustomer(key, body)).rejects.toThrow('fetch failed');
  expect((await listCustomers()).length).toBe(before + 1);
  const retried = await createCustomer(key, body);
  expect(retried.status).toBe(201);
  expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
  expect((await listCustomers()).length).toBe(before + 1);
  const entries = (await journal()).filter((e) => e.fault?.reset);
  expect(entries.map((e) => [e.status, e.fault])).toEqual([
    [0, { reset: true, effect: 'after', source: 2 }],
    [0, { reset: true, effect: 'before', source: 1 }],
  ]);
  // The server's log says the same: no answer, not the 204 nobody received.
  expect(log.lines.filter((l) => (l.fields?.fault as { reset?: true } | undefined)?.reset).map((l) => l.fields!.status)).toEqual([0, 0]);
  await fetch(`${running.url}/_sandbox/api/faults`, { method: 'DELETE' });
});

test('a 429 carries Retry-After on the wire, and so does a 503 whose request committed', async () => {
  await setFaults({
    rules: [
      { match: { method: 'GET' }, status: 429, retryAfter: '2s', times: 1 },
      { match: { operationId: 'createCustomer' }, status: 503, retryAfter: 5, effect: 'after', times: 1 },
    ],
  });
  const limited = await fetch(`${running.url}/v1/customers`, { headers: { Authorization: `Bearer ${token}` } });
  expect([limited.status, limited.headers.get('Retry-After'), limited.headers.get('Content-Type')]).toEqual([429, '2', 'application/problem+json']);
  const name = randomUUID();
  const lost = await createCustomer(randomUUID(), { chainId: testWallet(name).chainId, externalId: name });
  expect([lost.status, lost.headers.get('Retry-After'), lost.headers.get('Content-Type')]).toEqual([503, '5', 'application/problem+json']);
  expect(await lost.json()).toMatchObject({ code: 'service_unavailable' });
});

test('latency holds the answer back at least as long as asked, by rule and by header', async () => {
  await setFaults({ rules: [{ match: { method: 'GET', path: '/v1/customers' }, latency: '300ms', times: 1 }] });
  let started = performance.now();
  await listCustomers();
  expect(performance.now() - started).toBeGreaterThanOrEqual(295);
  const name = randomUUID();
  started = performance.now();
  const res = await createCustomer(randomUUID(), { chainId: testWallet(name).chainId, externalId: name }, { 'Sandbox-Fault': 'latency=200ms' });
  expect(res.status).toBe(201);
  expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  expect((await journal())[0]!.fault).toEqual({ latency: '200ms', effect: 'before', source: 'header' });
});
