/**
 * Programmes (docs/programmes.md: Parallel test suites): made, listed, read and deleted on the control plane;
 * each with its own credentials, world, clock, events and journal, which no other programme sees;
 * bounded by --max-programmes; every query a service makes names its programme.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../config/index.js';
import { T0, createTestSandbox } from '../testing/harness.js';
import { DEAD_CALLBACK } from '../testing/hostile-world.js';
import { programme, verifiedCustomer } from '../testing/programmes.js';
import { proofFor, testWallet } from '../testing/world.js';
import { until } from '../testing/wait.js';

const HOUR = 3_600_000;
const UNKNOWN = '3b241101-e2bb-4255-8caf-4136c566a962';

describe('/_sandbox/programmes', () => {
  it('a running clock that reaches the end of the range of time stops there', async () => {
    const sb = createTestSandbox();
    const running = await programme(sb, { name: 'at-the-end' });
    // A snapshot of a programme whose clock runs, at the last instant of the range.
    const file = JSON.parse(readFileSync(new URL('../snapshots/fixtures/version-3.snapshot.json', import.meta.url), 'utf8'));
    file.state.clock = { now: '9999-12-31T23:59:59.999Z', frozen: false };
    file.sha256 = createHash('sha256').update(JSON.stringify(file.state)).digest('hex');
    expect((await running.control('POST', '/snapshots/restore', { body: JSON.stringify(file) })).status).toBe(200);
    // The wall clock moves on, and the programme's clock does not follow it past the range.
    const restoredAt = Date.now();
    await until(() => Date.now() > restoredAt + 1, 'the wall clock to move');
    expect((await running.control('GET', '/clock')).body).toMatchObject({ now: '9999-12-31T23:59:59.999Z', frozen: false });
  });

  it('makes a programme with its own credentials and clock, lists it after the default one, and deletes it', async () => {
    const sb = createTestSandbox();
    const a = await programme(sb, { name: 'worker-1', clock: '2026-06-01T00:00:00Z' });
    expect(a.created).toEqual({
      id: a.id,
      name: 'worker-1',
      apiKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
      apiSecret: expect.any(String),
      apiKeys: [a.apiKey],
      clock: { now: '2026-06-01T00:00:00.000Z', frozen: true },
      holdExpiry: '7d',
      startingBalance: '1000000',
      createdAt: expect.any(String),
    });
    const listed = await sb.json('GET', '/_sandbox/programmes', { token: false });
    expect(listed.body.map((p: { id: string }) => p.id)).toEqual(['default', a.id]);
    expect(listed.body[0]).toMatchObject({ name: 'default', apiKeys: [DEFAULT_API_KEY], clock: { frozen: true } });
    expect(JSON.stringify(listed.body)).not.toContain(a.apiSecret);
    expect((await sb.json('GET', `/_sandbox/programmes/${a.id}`, { token: false })).body).toMatchObject({ id: a.id, name: 'worker-1' });

    expect((await sb.request('DELETE', `/_sandbox/programmes/${a.id}`, { token: false })).status).toBe(204);
    expect((await sb.json('GET', `/_sandbox/programmes/${a.id}`, { token: false })).body).toMatchObject({ status: 404, code: 'programme_not_found' });
    // Its token names a programme that no longer exists.
    expect((await a.api('GET', '/v1/customers')).body).toMatchObject({
      status: 401,
      code: 'not_authorised',
      detail: expect.stringContaining('no longer exists'),
    });
    expect((await sb.json('POST', '/v1/auth/token', { token: false, body: { apiKey: a.apiKey, apiSecret: a.apiSecret } })).status).toBe(401);
  });

  it('keeps the default programme, and stops at --max-programmes with a 429', async () => {
    const sb = createTestSandbox({ maxProgrammes: 2 });
    expect((await sb.json('DELETE', '/_sandbox/programmes/default', { token: false })).body).toMatchObject({
      status: 409,
      code: 'default_programme',
      title: 'Programme cannot be deleted',
    });
    await programme(sb);
    const refused = await sb.json('POST', '/_sandbox/programmes', { token: false, body: {} });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Content-Type')).toBe('application/problem+json');
    expect(refused.body).toMatchObject({
      code: 'programme_limit_reached',
      title: 'Too many programmes',
      detail: expect.stringContaining('--max-programmes 2'),
    });
  });

  it.each([
    [{ clock: 'yesterday' }, 'clock'],
    [{ randomSeed: -1 }, 'randomSeed'],
    [{ randomSeed: 1.5 }, 'randomSeed'],
    [{ name: '' }, 'name'],
    [{ name: 7 }, 'name'],
    [{ colour: 'blue' }, 'body'],
    [[], 'body'],
  ])('refuses %j naming %s, and makes nothing', async (body, path) => {
    const sb = createTestSandbox();
    const res = await sb.json('POST', '/_sandbox/programmes', { token: false, body });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect((await sb.json('GET', '/_sandbox/programmes', { token: false })).body).toHaveLength(1);
  });

  it('refuses a malformed programme id with 400 and an unknown one with 404, in the path, the query or the header', async () => {
    const sb = createTestSandbox();
    expect((await sb.json('GET', '/_sandbox/programmes/not-an-id', { token: false })).status).toBe(400);
    expect((await sb.json('DELETE', `/_sandbox/programmes/${UNKNOWN}`, { token: false })).body.code).toBe('programme_not_found');
    expect((await sb.json('GET', '/_sandbox/clock?programme=nope', { token: false })).body).toMatchObject({ status: 400, errors: [{ path: 'programme' }] });
    expect((await sb.json('GET', `/_sandbox/clock?programme=${UNKNOWN}`, { token: false })).body.code).toBe('programme_not_found');
    expect((await sb.json('GET', '/_sandbox/events', { token: false, headers: { 'Sandbox-Programme': '../x' } })).body).toMatchObject({
      status: 400,
      errors: [{ path: 'Sandbox-Programme' }],
    });
    expect((await sb.json('GET', '/_sandbox/events', { token: false, headers: { 'Sandbox-Programme': UNKNOWN } })).status).toBe(404);
  });

  it('refuses ?programme= and a Sandbox-Programme header that name different programmes, and acts on neither', async () => {
    const sb = createTestSandbox();
    const both = (query: string, header: string) =>
      sb.json('POST', `/_sandbox/clock/advance?programme=${query}`, { token: false, body: { by: '1h' }, headers: { 'Sandbox-Programme': header } });
    const other = await programme(sb, { clock: '2026-03-01T09:00:00Z' });
    const before = (await sb.json('GET', '/_sandbox/clock', { token: false })).body.now;
    const refused = await both('default', other.id);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_request', errors: [{ path: 'programme' }] });
    expect(refused.body.detail).toContain('name different programmes');
    expect((await sb.json('GET', '/_sandbox/clock', { token: false })).body.now).toBe(before);
    expect((await other.control('GET', '/clock')).body.now).toBe('2026-03-01T09:00:00.000Z');
    // The same programme in both, whatever the case, is no disagreement.
    expect((await both(other.id.toUpperCase(), other.id)).status).toBe(200);
  });
});

describe('isolation', () => {
  it('gives each programme its own world, events, journal and clock; a token acts only on its own', async () => {
    const sb = createTestSandbox();
    const a = await programme(sb, { clock: '2026-03-01T09:00:00Z' });
    const b = await programme(sb, { clock: '2026-03-01T09:00:00Z' });
    const customerA = await verifiedCustomer(a, 'alice');
    await verifiedCustomer(b, 'bob');

    expect((await a.api('GET', '/v1/customers')).body.map((c: { externalId: string }) => c.externalId)).toEqual(['alice']);
    expect((await b.api('GET', '/v1/customers')).body.map((c: { externalId: string }) => c.externalId)).toEqual(['bob']);
    expect((await sb.json('GET', '/v1/customers')).body).toEqual([]);
    // B's token acts on B: A's customer is not found there, and the same wallet may register again.
    expect((await b.api('GET', `/v1/customers/${customerA}`)).status).toBe(404);
    expect((await b.api('POST', '/v1/customers', { body: { chainId: testWallet('alice').chainId, externalId: 'alice' } })).status).toBe(201);

    const eventsA = (await a.control('GET', '/events')).body as { entityId: string }[];
    expect(eventsA.length).toBeGreaterThan(0);
    expect(eventsA.every((e) => e.entityId === customerA)).toBe(true);
    expect((await sb.json('GET', '/_sandbox/events', { token: false })).body).toEqual([]);
    expect((await a.control('GET', '/requests')).body.every((r: { path: string }) => !r.path.includes('/customers/') || r.path.includes(customerA))).toBe(true);
    // The default programme's journal holds only the one request made with its own token.
    expect((await sb.json('GET', '/_sandbox/requests', { token: false })).body.map((r: { path: string }) => r.path)).toEqual(['/v1/customers']);

    expect((await a.control('POST', '/clock/advance', { body: { by: '31d' } })).body.now).toBe('2026-04-01T09:00:00.000Z');
    expect((await b.control('GET', '/clock')).body).toEqual({ now: '2026-03-01T09:00:00.000Z', frozen: true });
    expect((await sb.json('GET', '/_sandbox/clock', { token: false })).body.now).toBe(new Date(T0).toISOString());
    // A's clock expired A's token; B's is still good.
    expect((await a.api('GET', '/v1/customers')).status).toBe(401);
    expect((await b.api('GET', '/v1/customers')).status).toBe(200);
  });

  it("finds a token's programme whatever the case of its scheme and the spaces around it, as authentication reads it", async () => {
    const sb = createTestSandbox();
    const a = await programme(sb);
    expect((await a.api('POST', '/v1/customers', { body: { chainId: testWallet('case').chainId, externalId: 'mine' } })).status).toBe(201);
    for (const authorization of [`bearer ${a.token}`, `  BEARER   ${a.token}  `]) {
      const res = await sb.json('GET', '/v1/customers', { token: false, headers: { Authorization: authorization } });
      expect(res.status).toBe(200);
      expect(res.body.map((c: { externalId: string }) => c.externalId)).toEqual(['mine']);
    }
  });

  it('lets two programmes seeded alike hold the same ids without seeing each other', async () => {
    const sb = createTestSandbox();
    const a = await programme(sb, { clock: '2026-03-01T09:00:00Z', randomSeed: 7 });
    const b = await programme(sb, { clock: '2026-03-01T09:00:00Z', randomSeed: 7 });
    const inA = await verifiedCustomer(a, 'same');
    const inB = await verifiedCustomer(b, 'same');
    expect(inB).toBe(inA);
    expect((await a.api('PATCH', `/v1/customers/${inA}/deactivate`)).body.status).toBe('inactive');
    expect((await b.api('GET', `/v1/customers/${inB}`)).body.status).toBe('active');
  });

  it('resets one programme and leaves the others whole', async () => {
    const sb = createTestSandbox();
    const a = await programme(sb);
    const b = await programme(sb);
    await verifiedCustomer(a, 'alice');
    await verifiedCustomer(b, 'bob');
    const wiped = await a.control('POST', '/reset');
    expect(wiped.body.wiped).toMatchObject({ customers: 1 });
    expect((await a.api('GET', '/v1/customers')).body).toEqual([]);
    expect((await b.api('GET', '/v1/customers')).body).toHaveLength(1);
    expect((await b.control('GET', '/events')).body.length).toBeGreaterThan(0);
    // Credentials stay: A's token still works.
    expect((await a.api('GET', '/v1/customers')).status).toBe(200);
  });

  it("deletes a programme's pending deliveries with it: no attempt is made after", async () => {
    const sb = createTestSandbox();
    const a = await programme(sb, { clock: '2026-03-01T09:00:00Z' });
    expect((await a.api('PUT', '/v1/webhooks', { body: { callbackUrl: DEAD_CALLBACK, types: ['customer.updated'] } })).status).toBe(200);
    await verifiedCustomer(a, 'alice');
    const services = sb.deps.programmes.get(a.id).services;
    await services.scheduler.advance(services.scheduler.nextDue()!);
    const pending = () => sb.deps.store.sqlite.prepare("SELECT count(*) FROM deliveries WHERE status = 'pending'").pluck().get();
    expect(pending()).toBeGreaterThan(0);
    const attempts = () => sb.deps.store.sqlite.prepare('SELECT count(*) FROM attempts').pluck().get();
    const before = attempts();
    expect((await sb.request('DELETE', `/_sandbox/programmes/${a.id}`, { token: false })).status).toBe(204);
    expect(pending()).toBe(0);
    expect(await services.scheduler.advance(T0 + 48 * HOUR)).toMatchObject({ ran: 0 });
    expect(attempts()).toBe(0);
    expect(before).toBeGreaterThan(0);
  });

  it('asks the store only for rows of the programme at hand: every query that reads or writes programme data names one', async () => {
    const sb = createTestSandbox();
    const seen = new Set<string>();
    const prepare = sb.deps.store.sqlite.prepare.bind(sb.deps.store.sqlite);
    sb.deps.store.sqlite.prepare = ((source: string) => {
      seen.add(source);
      return prepare(source);
    }) as typeof prepare;
    // Services prepare some statements when a programme is first used: make them after the spy.
    const a = await programme(sb, { clock: '2026-03-01T09:00:00Z' });
    await a.api('PUT', '/v1/webhooks', {
      body: { callbackUrl: DEAD_CALLBACK, types: ['customer.updated', 'account.updated', 'card.updated', 'authorisation.updated', 'transaction.updated'] },
    });
    const customerId = await verifiedCustomer(a, 'alice');
    const account = await a.api('POST', `/v1/customers/${customerId}/accounts`, { body: { type: 'card_account', currencies: ['EUR'] } });
    await a.api('POST', `/v1/accounts/${account.body.id}/challenge/sign`, { body: await proofFor(testWallet('alice'), account.body.challenge) });
    await a.control('POST', '/clock/advance', { body: { by: '2s' } });
    const card = await a.api('POST', `/v1/accounts/${account.body.id}/cards`, {
      body: { type: 'virtual', billingAddress: { firstLine: '1 A St', city: 'London', country: 'GB', postCode: 'N1' } },
    });
    await a.api('PATCH', `/v1/simulator/cards/${card.body.id}/issue`);
    await a.api('POST', `/v1/simulator/cards/${card.body.id}/authorisation`, { body: { amount: '5', currency: 'EUR' } });
    await a.control('POST', '/clock/advance', { body: { by: '1h' } });
    await a.api('GET', `/v1/cards/${card.body.id}/transactions`);
    await a.control('GET', '/events');
    const someEvent = (await a.control('GET', '/events')).body[0].id;
    await a.control('GET', `/events/${someEvent}`);
    await a.control('POST', `/events/${someEvent}/resend`);
    await a.control('GET', '/world');
    await a.control('GET', '/world/counts');
    // The delivery lab (docs/webhooks.md: Webhooks → The delivery lab): faults, holds, pauses and controls.
    const hookId = (await a.control('GET', '/webhooks')).body[0].id;
    await a.control('PUT', '/webhooks/faults', { body: { duplicate: 1, reorder: 1, delay: '1s', fail: { status: 503, times: 1 }, seed: 1 } });
    await a.control('PUT', `/webhooks/${hookId}/faults`, { body: { reorder: 1, timeout: 0.5 } });
    await a.control('POST', '/events/resend', { body: { type: 'customer.updated' } });
    await a.control('POST', '/clock/advance', { body: { by: '5m' } });
    await a.control('GET', `/webhooks/${hookId}/faults`);
    await a.control('DELETE', `/webhooks/${hookId}/faults`);
    await a.control('DELETE', '/webhooks/faults');
    await a.control('POST', `/webhooks/${hookId}/pause`);
    await a.control('POST', '/webhooks/pause');
    await a.api('PATCH', `/v1/customers/${customerId}/deactivate`);
    await a.control('POST', '/webhooks/resume');
    await a.control('POST', `/webhooks/${hookId}/resume`);
    const deliveryId = (await a.control('GET', `/events/${someEvent}`)).body.deliveries[0].id;
    await a.control('POST', `/deliveries/${deliveryId}/exhaust`);
    await a.control('POST', `/deliveries/${deliveryId}/retry`);
    await a.control('POST', '/clock/advance', { body: { by: '1m' } });
    await a.api('PATCH', `/v1/customers/${customerId}/activate`);
    await a.control('POST', '/reset');

    const TABLES =
      /\b(?:from|into|update|join)\s+"(customers|accounts|cards|authorisations|transactions|events|webhooks|deliveries|attempts|jobs|idempotency_keys|signing_keys)"/i;
    // An insert names the programme among its columns; anything else in its WHERE clause.
    const scoped = (source: string) => (/^insert\b/i.test(source) ? /"programme_id"/ : /\swhere\s[\s\S]*"programme_id"/i).test(source);
    const unscoped = [...seen].filter((source) => TABLES.test(source) && !scoped(source));
    expect(seen.size).toBeGreaterThan(40);
    expect(unscoped).toEqual([]);
  });
});
