/**
 * Snapshots (docs/snapshots.md): a programme's whole state taken at one instant and put back — the
 * world, the clock, the retry schedule of a failing delivery, a held authorisation, the journal and
 * the faults — after it was wrecked; forked into a new programme that goes its own way. Files:
 * snapshot-files.e2e.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { MISSING, payments } from '../testing/payments.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { snapshotSandbox } from '../testing/snapshots.js';
import { openStore } from '../store/store.js';
import { issuedCard, testWallet } from '../testing/world.js';

describe('snapshots', () => {
  const { made, control, everything, buildWorld } = snapshotSandbox();
  let sb: TestSandbox;
  let failing: Receiver;
  beforeEach(() => ({ sb, failing } = made));

  it('puts back a wrecked programme as it was: its world, clock, held authorisation and retry schedule', async () => {
    const { pay, authorisationId } = await buildWorld();
    const built = await everything();
    const pending = built.events.flatMap((e: any) => e.deliveries).filter((d: any) => d.status === 'pending');
    expect(pending).toHaveLength(1);
    expect(pending[0].attempts).toBe(3);
    expect(built.jobs.length).toBeGreaterThan(0);

    // Faults in force: the delivery lab's (duplicates touch only deliveries that succeed) and the API fault lab's.
    await control('PUT', '/webhooks/faults', { duplicate: 0.3 });
    await control('PUT', '/api/faults', { rules: [{ match: { operationId: 'deleteWebhook' }, status: 503, times: 2 }] });
    const before = await everything();
    const saved = await control('POST', '/snapshots', { name: 'held and failing' });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({
      name: 'held and failing',
      clock: before.clock,
      counts: { customers: 1, accounts: 1, cards: 1, authorisations: 1, webhooks: 1, deliveries: 1, attempts: 3, requests: 2 },
    });
    expect(saved.body.bytes).toBeGreaterThan(1000);

    // Wrecked: no faults, every delivery paused, reset, a month on, a new world.
    await control('DELETE', '/webhooks/faults');
    await control('DELETE', '/api/faults');
    await control('POST', '/webhooks/pause');
    await control('POST', '/reset');
    await control('POST', '/clock/advance', { by: '30d' });
    await control('POST', '/seed', { customers: [{ externalId: 'someone-else', accounts: [{ currencies: ['EUR'], cards: [{}] }] }] });
    expect(await everything()).not.toEqual(before);

    const restored = await control('POST', `/snapshots/${saved.body.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual(saved.body);
    expect(await everything()).toEqual(before);
    expect((await pay.authorisation(authorisationId)).status).toBe('pending');

    // The retry schedule goes on as it would have: what the snapshot had scheduled, and nothing the wreck did.
    const attemptsBefore = failing.requests.length;
    await pay.advance(25 * 3_600_000);
    const after = await everything();
    const delivery = after.events.flatMap((e: any) => e.deliveries).find((d: any) => d.id === pending[0].id);
    expect(delivery.status).toBe('discarded');
    expect(delivery.history.slice(0, 3)).toEqual(pending[0].history);
    // Every request the receiver got since is that delivery's; each attempt it answered is one of them (an attempt
    // that failed on its connection under load may never have reached it).
    const sent = failing.requests.slice(attemptsBefore).map((r) => JSON.parse(r.body.toString('utf8')).id);
    expect(new Set(sent)).toEqual(new Set([authorisationId]));
    const answered = delivery.history.slice(3).filter((a: { statusCode?: number }) => a.statusCode === 503).length;
    expect(sent.length).toBeGreaterThanOrEqual(answered);
    expect(sent.length).toBeLessThanOrEqual(delivery.attempts - 3);
    expect(answered).toBeGreaterThan(0);
  });

  it('puts back a world changed in its middle as well as at its end, every list in its order', async () => {
    const pay = payments(sb);
    const hooks = [];
    for (const n of [1, 2, 3])
      hooks.push((await pay.api('PUT', '/v1/webhooks', { body: { callbackUrl: `https://example.test/${n}`, types: ['card.updated'] } })).body);
    const seeded = (
      await control('POST', '/seed', {
        customers: [
          { externalId: 'a', status: 'initiating', accounts: [] },
          { externalId: 'b', accounts: [] },
          { externalId: 'c', status: 'initiating', accounts: [] },
        ],
      })
    ).body;
    const before = await everything();
    const saved = (await control('POST', '/snapshots')).body;

    await pay.api('PUT', '/v1/webhooks', { body: { id: hooks[0].id, callbackUrl: 'https://example.test/moved', types: ['card.updated'] } });
    await pay.api('DELETE', `/v1/webhooks/${hooks[1].id}`);
    await pay.api('PUT', '/v1/webhooks', { body: { callbackUrl: 'https://example.test/4', types: ['card.updated'] } });
    expect((await pay.api('PATCH', `/v1/simulator/customers/${seeded.customers[0].id}/reject`)).status).toBe(202);
    await control('POST', '/seed', { customers: [{ externalId: 'd', accounts: [] }] });
    const changed = (await everything()).world;
    expect(changed.webhooks.map((h: { callbackUrl: string }) => h.callbackUrl)).toEqual([
      'https://example.test/moved',
      'https://example.test/3',
      'https://example.test/4',
    ]);
    expect(changed.customers.map((c: { status: string }) => c.status)).toEqual(['rejected', 'active', 'initiating', 'active']);

    await control('POST', `/snapshots/${saved.id}/restore`);
    expect(await everything()).toEqual(before);
  });

  it('cuts short an attempt in flight when it restores, and records it nowhere: the restored delivery is sent again', async () => {
    const hanging = await startTestReceiver('hang');
    try {
      const pay = payments(sb);
      await pay.api('PUT', '/v1/webhooks', { body: { callbackUrl: `${hanging.url}/hooks`, types: ['customer.updated'] } });
      await control('POST', '/seed', { customers: [{ externalId: 'a', status: 'initiating', accounts: [] }] });
      const saved = (await control('POST', '/snapshots')).body;
      sb.deps.programmes.start();
      await hanging.waitFor(1);

      hanging.answer(200);
      const recorded = new Promise((resolve) => sb.deps.services.webhooks.onAttempt(resolve));
      expect((await control('POST', `/snapshots/${saved.id}/restore`)).status).toBe(200);
      expect(await recorded).toMatchObject({ attempt: 1, statusCode: 200 });
      const history = (await everything()).events.flatMap((e: any) => e.deliveries).flatMap((d: any) => d.history);
      expect(history.map((a: { attempt: number; statusCode?: number }) => [a.attempt, a.statusCode])).toEqual([[1, 200]]);
      expect(hanging.requests).toHaveLength(2);
    } finally {
      sb.deps.programmes.stop();
      await hanging.close();
    }
  });

  it('a seeded programme put back, again and again, answers the same requests byte for byte, API faults and retries included', async () => {
    const { cardId, authorisationId } = await buildWorld();
    await control('PUT', '/api/faults', { rules: [{ match: { operationId: 'getCustomers' }, status: 503, rate: 0.5 }] });
    const saved = (await control('POST', '/snapshots')).body;
    // Durations and the journal's real times are the things measured rather than decided.
    const timeless = (text: string) => text.replace(/"durationMs":[\d.]+/g, '"durationMs":0').replace(/"real":\{[^}]*\}/g, '"real":{}');
    const play = async () => {
      const answers: string[] = [];
      const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
        const res = await sb.request(method, path, { body, headers, token: false });
        const text = await res.text();
        answers.push(`${method} ${path} ${res.status} ${res.headers.get('Request-Id')} ${timeless(text)}`);
        return text ? JSON.parse(text) : undefined;
      };
      const { token } = await send('POST', '/v1/auth/token', { apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET });
      const auth = { Authorization: `Bearer ${token}` };
      for (let i = 0; i < 6; i++) await send('GET', '/v1/customers', undefined, auth);
      const bob = { chainId: testWallet('bob').chainId, externalId: 'bob' };
      await send('POST', '/v1/customers', bob, { ...auth, 'Idempotency-Key': 'a1b2c3d4-0000-4000-8000-000000000001' });
      await send('POST', '/v1/customers', bob, { ...auth, 'Idempotency-Key': 'a1b2c3d4-0000-4000-8000-000000000001' });
      await send('POST', `/v1/simulator/cards/${cardId}/authorisation`, { amount: '3.20', currency: 'GBP' }, auth);
      await send('POST', '/_sandbox/clock/advance', { by: '30m' });
      await send('GET', `/v1/authorisations/${authorisationId}`, undefined, auth);
      await send('GET', `/v1/cards/${cardId}/transactions`, undefined, auth);
      await send('GET', '/_sandbox/events?limit=1000');
      await send('GET', '/_sandbox/requests');
      await send('GET', '/_sandbox/api/faults');
      return answers;
    };
    const first = await play();
    expect(first.filter((a) => a.startsWith('GET /v1/customers 503'))).not.toHaveLength(0);
    expect(first.filter((a) => a.startsWith('GET /v1/customers 200'))).not.toHaveLength(0);
    for (let again = 0; again < 2; again++) {
      await control('POST', `/snapshots/${saved.id}/restore`);
      expect(await play()).toEqual(first);
    }
  });

  it('forks a new programme from a snapshot: its own credentials, the same world and clock, and no way back', async () => {
    const { pay } = await buildWorld();
    const before = await everything();
    const saved = (await control('POST', '/snapshots')).body;

    const forked = await control('POST', '/programmes', { from: saved.id, name: 'fork' });
    expect(forked.status).toBe(201);
    expect(forked.body).toMatchObject({ name: 'fork', clock: before.clock, apiKeys: [forked.body.apiKey] });
    expect(forked.body.apiKey).not.toBe(DEFAULT_API_KEY);
    const fork = await everything(forked.body.id);
    expect(fork).toEqual({ ...before, jobs: before.jobs.map((job) => ({ ...job, programmeId: forked.body.id })) });

    // Its own credentials reach its own world.
    const { token } = (await sb.json('POST', '/v1/auth/token', { body: { apiKey: forked.body.apiKey, apiSecret: forked.body.apiSecret }, token: false })).body;
    const customers = (await sb.json('GET', '/v1/customers', { token })).body;
    expect(customers).toEqual(before.world.customers.map(({ accounts: _, ...customer }: { accounts: unknown }) => customer));

    // What either does afterwards never shows in the other.
    await pay.api('DELETE', `/v1/webhooks/${before.world.webhooks[0].id}`);
    await control('POST', '/clock/advance', { by: '2d' }, forked.body.id);
    const forkAfter = await everything(forked.body.id);
    expect(forkAfter.clock.now).toBe(new Date(Date.parse(before.clock.now) + 2 * 86_400_000).toISOString());
    expect(forkAfter.world.webhooks).toEqual(before.world.webhooks);
    expect((await everything()).clock).toEqual(before.clock);
    const retried = forkAfter.events.flatMap((e: any) => e.deliveries).find((d: any) => d.status !== 'delivered');
    expect(retried).toMatchObject({ status: 'discarded' });
    expect((await everything()).events.flatMap((e: any) => e.deliveries)[0]).toMatchObject({ status: 'discarded', attempts: 3 });
  });

  it.each([
    [{ from: 'nope' }, 400, 'from'],
    [{ from: MISSING, clock: 'now' }, 400, 'clock'],
    [{ from: MISSING, randomSeed: 1 }, 400, 'randomSeed'],
  ])('refuses to fork %j, naming the field', async (body, status, field) => {
    const refused = await control('POST', '/programmes', body);
    expect(refused.status).toBe(status);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual([field]);
  });

  it('refuses to fork an unknown snapshot', async () => {
    const refused = await control('POST', '/programmes', { from: MISSING });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: 'snapshot_not_found', detail: `no snapshot with id ${MISSING}` });
    expect((await control('GET', '/programmes')).body).toHaveLength(1);
  });

  it('lists a programme’s own snapshots, oldest first; another’s are not its to restore, download or delete', async () => {
    const first = (await control('POST', '/snapshots', { name: 'first' })).body;
    const second = (await control('POST', '/snapshots')).body;
    expect(second.name).toBe(second.id);
    const other = (await control('POST', '/programmes', {})).body;
    const theirs = (await control('POST', '/snapshots', {}, other.id)).body;
    expect((await control('GET', '/snapshots')).body).toEqual([first, second]);
    expect((await control('GET', '/snapshots', undefined, other.id)).body).toEqual([theirs]);

    for (const [method, path] of [
      ['POST', `/snapshots/${theirs.id}/restore`],
      ['GET', `/snapshots/${theirs.id}/file`],
      ['DELETE', `/snapshots/${theirs.id}`],
      ['DELETE', `/snapshots/${MISSING}`],
    ] as const) {
      const refused = await control(method, path);
      expect(refused.status, `${method} ${path}`).toBe(404);
      expect(refused.body).toMatchObject({ code: 'snapshot_not_found', detail: expect.stringContaining('programme default has no snapshot with id') });
    }
    const malformed = await control('POST', '/snapshots/nope/restore');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ path: 'id', message: 'must be a UUID' }]);

    expect((await control('DELETE', `/snapshots/${first.id}`)).status).toBe(204);
    expect((await control('GET', '/snapshots')).body).toEqual([second]);
    // A programme's snapshots go with it.
    expect((await control('DELETE', `/programmes/${other.id}`)).status).toBe(204);
    expect((await control('POST', '/programmes', { from: theirs.id })).status).toBe(404);
  });

  it.each([
    [{ name: '' }, 'name', 'must not be empty'],
    [{ name: 7 }, 'name', 'must be a string'],
    [{ colour: 'red' }, 'body', 'Unrecognized key: "colour"'],
    [['a name'], 'body', 'must be a JSON object'],
  ])('refuses to take a snapshot with %j, naming the field', async (body, path, message) => {
    const refused = await control('POST', '/snapshots', body);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path, message }]);
    expect((await control('GET', '/snapshots')).body).toEqual([]);
  });
});

describe('how many snapshots a sandbox keeps', () => {
  it('is --max-snapshots, over every programme: past it 429, with room again once one is deleted', async () => {
    const sb = createTestSandbox({ maxSnapshots: 2 });
    const take = (programme?: string) =>
      sb.json('POST', '/_sandbox/snapshots', { body: {}, token: false, ...(programme && { headers: { 'Sandbox-Programme': programme } }) });
    const other = (await sb.json('POST', '/_sandbox/programmes', { body: {}, token: false })).body;
    const kept = (await take()).body;
    expect((await take(other.id)).status).toBe(201);
    const refused = await take();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'snapshot_limit_reached', title: 'Too many snapshots', detail: expect.stringContaining('--max-snapshots 2') });
    await sb.json('DELETE', `/_sandbox/snapshots/${kept.id}`, { token: false });
    expect((await take()).status).toBe(201);
  });
});

describe('snapshots in a database file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-snapshots-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('survive a restart, and restore there', async () => {
    const db = join(dir, 'sandbox.db');
    const first = createTestSandbox({ db }, { store: openStore(db) });
    await issuedCard(first);
    const world = (await first.json('GET', '/_sandbox/world', { token: false })).body;
    const saved = (await first.json('POST', '/_sandbox/snapshots', { body: { name: 'kept' }, token: false })).body;
    first.deps.store.close();

    const second = createTestSandbox({ db }, { store: openStore(db) });
    try {
      expect((await second.json('GET', '/_sandbox/snapshots', { token: false })).body).toEqual([saved]);
      await second.json('POST', '/_sandbox/reset', { token: false });
      expect((await second.json('POST', `/_sandbox/snapshots/${saved.id}/restore`, { token: false })).status).toBe(200);
      expect((await second.json('GET', '/_sandbox/world', { token: false })).body).toEqual(world);
    } finally {
      second.deps.store.close();
    }
  });
});
