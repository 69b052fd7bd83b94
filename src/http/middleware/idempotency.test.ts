/**
 * Idempotency keys (docs/signatures.md: Idempotency) through the whole app, on a stand-in resource whose effects are
 * counted: replays, key reuse, requests in flight, expiry in sandbox time, 5xx and bursts.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../../config/index.js';
import { events } from '../../store/schema.js';
import { createTestSandbox, T0, type TestSandbox } from '../../testing/harness.js';
import { mountProbeRoutes, type Probes } from '../../testing/probe-routes.js';
import { testWallet } from '../../testing/world.js';

const BODY = { name: 'widget', size: 3 };

describe('Idempotency-Key', () => {
  let sandbox: TestSandbox;
  let probes: Probes;
  let key: string;
  beforeEach(() => {
    sandbox = createTestSandbox();
    probes = mountProbeRoutes(sandbox);
    key = randomUUID();
  });

  const post = (body: unknown = BODY, options: { key?: string; path?: string; token?: string } = {}) =>
    sandbox.request('POST', options.path ?? '/v1/probes', { body, token: options.token, headers: { 'Idempotency-Key': options.key ?? key } });

  it('replays the stored status, headers and body with Idempotent-Replayed: true, and no second effect', async () => {
    const first = await post();
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const firstBody = await first.text();

    const again = await post();
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get('Content-Type')).toBe(first.headers.get('Content-Type'));
    expect(again.headers.get('Location')).toBe(first.headers.get('Location'));
    expect(again.headers.get('Request-Id')).not.toBe(first.headers.get('Request-Id'));
    expect(probes.effects).toEqual([BODY]);
    expect(sandbox.deps.journal.list()[0]).toMatchObject({ status: 201, replayed: true });
  });

  it('treats the key case-insensitively, as the UUID it is', async () => {
    await post(BODY, { key: key.toLowerCase() });
    expect((await post(BODY, { key: key.toUpperCase() })).headers.get('Idempotent-Replayed')).toBe('true');
    expect(probes.effects).toHaveLength(1);
  });

  it('replays a 204 without a body', async () => {
    const id = randomUUID();
    const del = () => sandbox.request('DELETE', `/v1/probes/${id}`, { headers: { 'Idempotency-Key': key } });
    expect((await del()).status).toBe(204);
    const again = await del();
    expect(again.status).toBe(204);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.text()).toBe('');
    expect(probes.effects).toHaveLength(1);
  });

  it('replays a refusal too: only 5xx answers are forgotten', async () => {
    const bad = { name: '', size: 0 };
    const first = await post(bad);
    expect(first.status).toBe(400);
    const again = await post(bad);
    expect(again.status).toBe(400);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.headers.get('Content-Type')).toBe('application/problem+json');
    expect(await again.json()).toEqual(await first.json());
  });

  it('refuses the same key on a different body or path with 400 idempotency_key_reused (the status the service declares), changing nothing', async () => {
    await post();
    for (const res of [await post({ ...BODY, size: 4 }), await post(BODY, { path: '/v1/probes?dry=1' })]) {
      expect(res.status).toBe(400);
      expect(res.headers.get('Content-Type')).toBe('application/problem+json');
      expect(await res.json()).toMatchObject({
        status: 400,
        title: 'Invalid request',
        code: 'idempotency_key_reused',
        detail: expect.stringContaining('use a new key'),
      });
    }
    expect(probes.effects).toHaveLength(1);
    expect((await post()).headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('scopes keys to the API credential', async () => {
    const otherKey = '2b9e7c51-3f0a-4d8e-9c61-5a7b8d9e0f12';
    const auth = sandbox.deps.services.auth;
    auth.putCredentials(otherKey, 'second');
    const mine = auth.issueToken(DEFAULT_API_KEY, DEFAULT_API_SECRET).token;
    const theirs = auth.issueToken(otherKey, 'second').token;
    expect((await post(BODY, { token: mine })).status).toBe(201);
    const res = await post(BODY, { token: theirs });
    expect(res.status).toBe(201);
    expect(res.headers.get('Idempotent-Replayed')).toBeNull();
    expect(probes.effects).toHaveLength(2);
  });

  it('answers 409 to the same key while the first request is still being handled', async () => {
    const { entered, release } = probes.hold();
    const first = post();
    await entered;
    const during = await post();
    expect(during.status).toBe(409);
    expect(await during.json()).toMatchObject({ status: 409, title: 'Idempotency conflict', code: 'idempotency_in_flight' });
    release();
    expect((await first).status).toBe(201);
    expect((await post()).headers.get('Idempotent-Replayed')).toBe('true');
    expect(probes.effects).toHaveLength(1);
  });

  it('keeps a key for 1 h of sandbox time', async () => {
    await post();
    await sandbox.deps.services.scheduler.advance(T0 + 3_599_999);
    const token = sandbox.deps.services.auth.issueToken(DEFAULT_API_KEY, DEFAULT_API_SECRET).token;
    expect((await post({ ...BODY, size: 4 }, { token })).status).toBe(400);
    await sandbox.deps.services.scheduler.advance(T0 + 3_600_000);
    const fresh = await post({ ...BODY, size: 4 }, { token });
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('Idempotent-Replayed')).toBeNull();
    expect(probes.effects).toEqual([BODY, { ...BODY, size: 4 }]);
  });

  it('does not store a 5xx: the same key may be retried and then takes effect once', async () => {
    probes.failNext();
    const failed = await post();
    expect(failed.status).toBe(500);
    const problem = (await failed.json()) as { detail: string };
    expect(problem).toMatchObject({ status: 500, title: 'Internal error', code: 'internal_error' });
    expect(problem.detail).not.toMatch(/probe failure|at .*\.ts/);
    expect(sandbox.log.lines.some((l) => l.level === 'error' && String(l.fields?.error).includes('probe failure'))).toBe(true);

    const retried = await post();
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBeNull();
    expect((await post()).headers.get('Idempotent-Replayed')).toBe('true');
    expect(probes.effects).toEqual([BODY]);
  });

  it('has a concurrent burst of 20 identical requests take effect once', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => post()));
    expect(probes.effects).toEqual([BODY]);
    const original = responses.filter((r) => r.status === 201 && r.headers.get('Idempotent-Replayed') === null);
    expect(original).toHaveLength(1);
    const bodies = new Set(await Promise.all(responses.filter((r) => r.status === 201).map((r) => r.text())));
    expect(bodies.size).toBe(1);
    for (const res of responses.filter((r) => r.status !== 201)) {
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'idempotency_in_flight' });
    }
    // Without a shared key, the same burst takes effect every time: the check above can fail.
    await Promise.all(Array.from({ length: 20 }, () => post(BODY, { key: randomUUID() })));
    expect(probes.effects).toHaveLength(21);
  });

  it('has a burst on a real resource create one customer and one event, never "already exists"', async () => {
    const body = { chainId: testWallet('idempotent burst').chainId, externalId: 'burst-1' };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => sandbox.request('POST', '/v1/customers', { body, headers: { 'Idempotency-Key': key } })),
    );
    // Without the key, every duplicate would be refused with customer_already_exists.
    for (const res of responses) {
      if (res.status !== 201) expect(await res.json()).toMatchObject({ status: 409, code: 'idempotency_in_flight' });
    }
    expect(responses.filter((r) => r.status === 201 && r.headers.get('Idempotent-Replayed') === null)).toHaveLength(1);
    const customers = (await sandbox.json('GET', '/v1/customers')).body as { id: string }[];
    expect(customers).toHaveLength(1);
    const written = sandbox.deps.store.db
      .select()
      .from(events)
      .all()
      .filter((e) => e.entityId === customers[0]!.id);
    expect(written).toHaveLength(1);
  });

  it('ignores keys on GET, and malformed keys outside strict mode', async () => {
    const get = await sandbox.request('GET', '/v1/chains', { headers: { 'Idempotency-Key': key } });
    expect(get.headers.get('Idempotent-Replayed')).toBeNull();
    await post(BODY, { key: 'not-a-uuid' });
    await post(BODY, { key: 'not-a-uuid' });
    expect(probes.effects).toHaveLength(2);
  });
});
