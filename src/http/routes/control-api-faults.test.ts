/**
 * The API fault lab in-process (docs/api-faults.md: The API fault lab): rules set, shown and cleared on the
 * control plane, and what they do to /v1 requests — 5xx and 429 before a request does anything or
 * after it committed, expired tokens, the Sandbox-Fault header — each written in the journal. A
 * closed connection and latency need a socket and a clock: api-faults.e2e.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/index.js';
import { parseApiFaultsJson } from '../../domain/api-faults.js';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { recordChanges } from '../../testing/state.js';
import { testWallet } from '../../testing/world.js';

const faults = (sb: TestSandbox, method: string, body?: unknown, headers?: Record<string, string>) =>
  sb.json(method, '/_sandbox/api/faults', { body, headers, token: false });
const customers = (sb: TestSandbox) => (sb.deps.store.sqlite.prepare('SELECT count(*) AS n FROM customers').get() as { n: number }).n;
const customerBody = () => {
  const name = randomUUID();
  return { chainId: testWallet(name).chainId, externalId: name };
};
const newCustomer = (sb: TestSandbox, options: { key?: string; body?: unknown; headers?: Record<string, string>; token?: string } = {}) =>
  sb.json('POST', '/v1/customers', {
    body: options.body ?? customerBody(),
    headers: { 'Idempotency-Key': options.key ?? randomUUID(), ...options.headers },
    ...(options.token && { token: options.token }),
  });
const journal = async (sb: TestSandbox) =>
  (await sb.json('GET', '/_sandbox/requests', { token: false })).body as {
    status: number;
    path: string;
    fault?: Record<string, unknown>;
    problem?: { code: string };
  }[];

describe('PUT, GET and DELETE /_sandbox/api/faults', () => {
  it('keeps the rules in their normal form, shows what each has left, and clears them', async () => {
    const sb = createTestSandbox();
    const put = await faults(sb, 'PUT', {
      rules: [
        { match: { method: 'post', path: '/v1/customers' }, status: 503, times: 2 },
        { latency: '100ms', rate: 0.5 },
      ],
      seed: 7,
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      rules: [
        { match: { method: 'POST', path: '/v1/customers' }, status: 503, effect: 'before', rate: 1, times: 2, remaining: 2, hits: 0 },
        { match: {}, latency: '100ms', effect: 'before', rate: 0.5, hits: 0 },
      ],
      seed: 7,
    });
    expect((await faults(sb, 'GET')).body).toEqual(put.body);
    expect((await faults(sb, 'DELETE')).status).toBe(204);
    expect((await faults(sb, 'GET')).body).toEqual({ rules: [] });
  });

  it.each([
    [{ rules: [{ status: 404 }] }, 'rules.0.status'],
    [{ rules: [{}] }, 'rules.0'],
    [{ rules: [{ status: 503 }], extra: 1 }, 'body'],
    ['{"rules": [', 'body'],
    [{ rules: [{ status: 503 }, { match: { operationId: 'createCustomers' }, status: 503 }] }, 'rules.1.match.operationId'],
    [{ rules: [{ match: { method: 'DELETE', path: '/v1/customers/{customerId}' }, status: 503 }] }, 'rules.0.match'],
    [{ rules: [{ match: { path: '/v1/auth/token' }, status: 503 }] }, 'rules.0.match'],
  ])('refuses %j with a 400 naming the field, and keeps the rules it had', async (body, path) => {
    const sb = createTestSandbox();
    const kept = (await faults(sb, 'PUT', { rules: [{ status: 502, times: 1 }] })).body;
    const res = await faults(sb, 'PUT', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request' });
    if (typeof body !== 'string') expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect((await faults(sb, 'GET')).body).toEqual(kept);
  });
});

describe('--api-faults', () => {
  it('stops the start when a rule can meet no request, naming it', () => {
    const parsed = parseApiFaultsJson('{"rules":[{"match":{"operationId":"createCustomers"},"status":503}]}');
    if ('errors' in parsed) throw new Error('the rules are well formed');
    expect(() => createTestSandbox({ apiFaults: parsed.faults })).toThrow(
      new ConfigError('--api-faults rules.0.match.operationId is not an operationId of /openapi.json'),
    );
  });
});

describe('what the rules do to /v1', () => {
  it('answers two 503s, then lets the third request through (times: 2), each in the journal', async () => {
    const sb = createTestSandbox();
    await faults(sb, 'PUT', { rules: [{ match: { method: 'POST', path: '/v1/customers' }, status: 503, times: 2 }] });
    const answers = [await newCustomer(sb), await newCustomer(sb), await newCustomer(sb)];
    expect(answers.map((a) => a.status)).toEqual([503, 503, 201]);
    expect(answers[0]!.body).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      title: 'Service unavailable',
      detail: expect.stringContaining('API fault lab, rule 1'),
    });
    expect(customers(sb)).toBe(1);
    expect((await faults(sb, 'GET')).body.rules[0]).toMatchObject({ remaining: 0, hits: 2 });
    const entries = (await journal(sb)).filter((e) => e.path === '/v1/customers');
    expect(entries.map((e) => [e.status, e.fault])).toEqual([
      [201, undefined],
      [503, { status: 503, effect: 'before', source: 1 }],
      [503, { status: 503, effect: 'before', source: 1 }],
    ]);
  });

  it('with effect "after", commits and loses the answer: the retry with the same key gets the created customer, once', async () => {
    const sb = createTestSandbox();
    await faults(sb, 'PUT', { rules: [{ match: { operationId: 'createCustomer' }, status: 503, effect: 'after', times: 1 }] });
    const key = randomUUID();
    const body = customerBody();
    const lost = await newCustomer(sb, { key, body });
    expect(lost.status).toBe(503);
    expect(customers(sb)).toBe(1);
    const retried = await newCustomer(sb, { key, body });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
    expect(customers(sb)).toBe(1);
    const [row] = sb.deps.store.sqlite.prepare('SELECT id FROM customers').all() as { id: string }[];
    expect(retried.body.id).toBe(row!.id);
    expect((await journal(sb)).find((e) => e.status === 503)!.fault).toEqual({ status: 503, effect: 'after', source: 1 });
  });

  it('answers 429 with Retry-After, 1 s unless the rule says', async () => {
    const sb = createTestSandbox();
    await faults(sb, 'PUT', {
      rules: [
        { match: { method: 'GET' }, status: 429, retryAfter: '3s', times: 1 },
        { match: { method: 'GET' }, status: 429 },
      ],
    });
    const first = await sb.request('GET', '/v1/customers');
    expect(first.status).toBe(429);
    expect(first.headers.get('Retry-After')).toBe('3');
    expect(await first.json()).toMatchObject({ code: 'rate_limited', title: 'Too many requests' });
    expect((await sb.request('GET', '/v1/customers')).headers.get('Retry-After')).toBe('1');
  });

  it('takes the token for expired (401), as the service does an hour in; a new token is refused the same while the rule lasts', async () => {
    const sb = createTestSandbox();
    await faults(sb, 'PUT', { rules: [{ expireToken: true, times: 1 }] });
    const refused = await sb.json('GET', '/v1/customers');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({
      code: 'not_authorised',
      detail: expect.stringMatching(/^the token expired at .* \(sandbox time; injected by the API fault lab, rule 1\)/),
    });
    expect((await sb.json('GET', '/v1/customers')).status).toBe(200);
  });

  it('matches its rules only in its own programme', async () => {
    const sb = createTestSandbox();
    const other = (await sb.json('POST', '/_sandbox/programmes', { body: {}, token: false })).body as { id: string; apiKey: string; apiSecret: string };
    await faults(sb, 'PUT', { rules: [{ status: 503 }] }, { 'Sandbox-Programme': other.id });
    const { token } = (await sb.json('POST', '/v1/auth/token', { body: { apiKey: other.apiKey, apiSecret: other.apiSecret }, token: false })).body as {
      token: string;
    };
    expect((await sb.json('GET', '/v1/customers')).status).toBe(200);
    expect((await sb.json('GET', '/v1/customers', { token })).status).toBe(503);
    expect((await faults(sb, 'GET')).body).toEqual({ rules: [] });
  });

  it('refuses nothing it was not asked to: other methods and paths pass', async () => {
    const sb = createTestSandbox();
    await faults(sb, 'PUT', { rules: [{ match: { method: 'POST', path: '/v1/cards/{cardId}/freeze' }, status: 500 }] });
    expect((await sb.json('GET', '/v1/customers')).status).toBe(200);
    expect((await newCustomer(sb)).status).toBe(201);
  });
});

describe('the Sandbox-Fault header', () => {
  it('faults its own request only, and is written in the journal as the header', async () => {
    const sb = createTestSandbox();
    const res = await newCustomer(sb, { headers: { 'Sandbox-Fault': 'status=502' } });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'bad_gateway' });
    expect(customers(sb)).toBe(0);
    expect((await newCustomer(sb)).status).toBe(201);
    expect((await journal(sb)).find((e) => e.status === 502)!.fault).toEqual({ status: 502, effect: 'before', source: 'header' });
    const after = await newCustomer(sb, { headers: { 'Sandbox-Fault': 'status=504; effect=after' } });
    expect(after.status).toBe(504);
    expect(customers(sb)).toBe(2);
  });

  it('refuses a header that is not a fault with a 400, and does nothing', async () => {
    const sb = createTestSandbox();
    const recorder = recordChanges(sb.deps.store);
    recorder.clear();
    const res = await newCustomer(sb, { headers: { 'Sandbox-Fault': 'status=404' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('Sandbox-Fault') });
    expect(recorder.changes()).toEqual([]);
  });

  it('is ignored with --env production', async () => {
    const sb = createTestSandbox({ env: 'production' });
    expect((await sb.json('GET', '/v1/customers', { headers: { 'Sandbox-Fault': 'status=503' } })).status).toBe(200);
  });
});
