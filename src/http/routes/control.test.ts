import { describe, expect, it } from 'vitest';
import { createClock } from '../../kernel/clock.js';
import { events, webhooks } from '../../store/schema.js';
import { T0, createTestSandbox } from '../../testing/harness.js';

const HOUR = 3_600_000;

describe('GET /_sandbox/health and /_sandbox/clock', () => {
  it('reports the mode and the sandbox clock', async () => {
    const { json } = createTestSandbox({ verify: 'strict' });
    const health = await json('GET', '/_sandbox/health', { token: false });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', env: 'sandbox', verify: 'strict', clock: '2026-03-01T09:00:00.000Z' });
    expect((await json('GET', '/_sandbox/clock', { token: false })).body).toEqual({ now: '2026-03-01T09:00:00.000Z', frozen: true });
  });
});

describe('POST /_sandbox/clock/advance', () => {
  it.each([
    ['PT25H', 25 * HOUR],
    ['25h', 25 * HOUR],
    ['30d', 30 * 24 * HOUR],
    ['90s', 90_000],
    ['P1DT2H', 26 * HOUR],
  ])('moves the clock by %s', async (by, ms) => {
    const { json, deps } = createTestSandbox();
    const res = await json('POST', '/_sandbox/clock/advance', { body: { by }, token: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ now: new Date(T0 + ms).toISOString(), ran: 0 });
    expect(deps.clock.now()).toBe(T0 + ms);
  });

  it.each([
    ['P1M', '2026-04-01T09:00:00.000Z'],
    ['1mo', '2026-04-01T09:00:00.000Z'],
    ['P3Y', '2029-03-01T09:00:00.000Z'],
    ['1y', '2027-03-01T09:00:00.000Z'],
    ['P1Y2M3DT4H', '2027-05-04T13:00:00.000Z'],
  ])('moves the clock by the calendar duration %s', async (by, now) => {
    const { json } = createTestSandbox();
    expect((await json('POST', '/_sandbox/clock/advance', { body: { by }, token: false })).body).toEqual({ now, ran: 0 });
  });

  it('moves the clock a month from the 31st to the last day of the next month', async () => {
    const { json } = createTestSandbox();
    await json('POST', '/_sandbox/clock/advance', { body: { to: '2027-01-31T12:00:00Z' }, token: false });
    expect((await json('POST', '/_sandbox/clock/advance', { body: { by: 'P1M' }, token: false })).body).toEqual({ now: '2027-02-28T12:00:00.000Z', ran: 0 });
  });

  it('moves the clock to a future instant', async () => {
    const { json } = createTestSandbox();
    const res = await json('POST', '/_sandbox/clock/advance', { body: { to: '2026-04-01T00:00:00Z' }, token: false });
    expect(res.body).toEqual({ now: '2026-04-01T00:00:00.000Z', ran: 0 });
  });

  it('keeps the offset so that a restart on the same database resumes at the advanced time', async () => {
    const wall = () => T0;
    const { json, programmeRow } = createTestSandbox({}, { clock: createClock({ wall }) });
    await json('POST', '/_sandbox/clock/advance', { body: { by: '2h' }, token: false });
    expect(createClock({ offset: programmeRow().clockOffset, wall }).now()).toBe(T0 + 2 * HOUR);
  });

  it('runs what falls due, each at its own due time, in due order', async () => {
    const { json, deps } = createTestSandbox();
    const ran: [string, number][] = [];
    deps.services.jobs.define('test.note', (subject, now) => void ran.push([subject, now]));
    deps.store.transaction(() => {
      deps.services.jobs.schedule('test.note', 'late', T0 + 3 * HOUR);
      deps.services.jobs.schedule('test.note', 'early', T0 + HOUR);
      deps.services.jobs.schedule('test.note', 'beyond', T0 + 30 * HOUR);
    });
    const res = await json('POST', '/_sandbox/clock/advance', { body: { by: 'PT25H' }, token: false });
    expect(res.body.ran).toBe(2);
    expect(ran).toEqual([
      ['early', T0 + HOUR],
      ['late', T0 + 3 * HOUR],
    ]);
    expect(deps.services.jobs.pending().map((j) => j.subjectId)).toEqual(['beyond']);
  });

  it.each([
    [{ by: '-1h' }, 'by'],
    [{ by: 'PT0S' }, 'by'],
    [{ by: '0h' }, 'by'],
    [{ by: 'soon' }, 'by'],
    [{ by: '' }, 'by'],
    [{ by: 25 }, 'by'],
    [{ by: '200000d' }, 'by'],
    [{}, 'by'],
    [{ by: '1h', to: '2027-01-01T00:00:00Z' }, 'to'],
    [{ to: '2026-01-01T00:00:00Z' }, 'to'],
    [{ to: '2026-03-01T09:00:00Z' }, 'to'],
    [{ to: 'tomorrow' }, 'to'],
    [{ to: '2026-13-45T00:00:00Z' }, 'to'],
    // Refused as --clock refuses it, not rolled over to 2 March.
    [{ to: '2026-02-30T00:00:00Z' }, 'to'],
    [{ to: '2027-02-29T12:00:00Z' }, 'to'],
  ])('refuses %j with a 400 naming %s, leaving the clock alone', async (body, path) => {
    const { json, deps } = createTestSandbox();
    const res = await json('POST', '/_sandbox/clock/advance', { body, token: false });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ title: 'Invalid request', code: 'invalid_request' });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(deps.clock.now()).toBe(T0);
  });

  it('refuses a body that is not JSON', async () => {
    const { json } = createTestSandbox();
    const res = await json('POST', '/_sandbox/clock/advance', { body: '{"by":', token: false });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });
});

describe('GET /_sandbox/requests', () => {
  it('lists API requests newest first, not control plane ones', async () => {
    const { json } = createTestSandbox({ journalSize: 2 });
    await json('GET', '/v1/chains');
    await json('GET', '/v1/assets');
    await json('GET', '/v1/nowhere');
    await json('GET', '/_sandbox/clock', { token: false });
    const res = await json('GET', '/_sandbox/requests', { token: false });
    expect(res.body.map((r: { path: string; status: number }) => [r.path, r.status])).toEqual([
      ['/v1/nowhere', 404],
      ['/v1/assets', 200],
    ]);
  });
});

describe('unknown control plane paths', () => {
  it('answer 404 route_not_found', async () => {
    const { json } = createTestSandbox();
    const res = await json('GET', '/_sandbox/nothing', { token: false });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('route_not_found');
  });
});

describe('--admin-token', () => {
  it('requires the bearer token on every control plane route', async () => {
    const { json, deps } = createTestSandbox({ adminToken: 's3cret' });
    for (const [method, path] of [
      ['GET', '/_sandbox/health'],
      ['GET', '/_sandbox/events'],
      ['POST', '/_sandbox/reset'],
      ['POST', '/_sandbox/clock/advance'],
    ] as const) {
      const res = await json(method, path, { token: false, body: method === 'POST' ? { by: '1h' } : undefined });
      expect(res.status, path).toBe(401);
      expect(res.body).toMatchObject({ title: 'Not authorised', code: 'not_authorised' });
    }
    expect((await json('GET', '/_sandbox/health', { token: 'wrong' })).status).toBe(401);
    expect((await json('GET', '/_sandbox/health', { headers: { Authorization: 's3cret' }, token: false })).status).toBe(401);
    expect(deps.clock.now()).toBe(T0);
    const ok = await json('POST', '/_sandbox/clock/advance', { token: 's3cret', body: { by: '1h' } });
    expect(ok.status).toBe(200);
  });

  it('is not needed when not configured', async () => {
    const { json } = createTestSandbox();
    expect((await json('GET', '/_sandbox/health', { token: false })).status).toBe(200);
  });
});

describe('POST /_sandbox/reset', () => {
  it('wipes events, deliveries, webhooks, jobs and the journal but keeps credentials, keys and the clock', async () => {
    const { json, deps, token, programmeRow } = createTestSandbox();
    const { db } = deps.store;
    db.insert(webhooks)
      .values({
        programmeId: 'default',
        id: 'e1b2c3d4-0000-4000-8000-000000000001',
        callbackUrl: 'http://127.0.0.1:9/',
        types: ['card.updated'],
        createdAt: T0,
        updatedAt: T0,
      })
      .run();
    deps.store.transaction(() => {
      deps.services.events.emit('card.updated', '7c9e6679-7425-40de-944b-e07fc1f90ae7', { status: 'active' });
      deps.services.jobs.schedule('test.never', 'x', T0 + HOUR);
    });
    await json('GET', '/v1/chains');
    await json('POST', '/_sandbox/clock/advance', { body: { by: '1m' }, token: false });
    const { tokenSecret } = programmeRow();

    const res = await json('POST', '/_sandbox/reset', { token: false });
    expect(res.status).toBe(200);
    expect(res.body.wiped).toMatchObject({ events: 1, deliveries: 1, webhooks: 1, jobs: 1, customers: 0, requests: 1 });

    expect(db.select().from(events).all()).toEqual([]);
    expect(db.select().from(webhooks).all()).toEqual([]);
    expect(deps.services.jobs.pending()).toEqual([]);
    expect((await json('GET', '/_sandbox/requests', { token: false })).body).toEqual([]);
    expect(programmeRow().tokenSecret).toBe(tokenSecret);
    expect(deps.clock.now()).toBe(T0 + 60_000);
    // A token issued before the reset still works: credentials are kept.
    expect((await json('GET', '/v1/chains', { token: token() })).status).toBe(200);
  });
});
