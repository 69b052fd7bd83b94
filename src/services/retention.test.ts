/**
 * Retention (--event-retention): the outbox keeps the newest N events with their deliveries and
 * attempts and never drops an event whose delivery is still pending; expired idempotency keys go.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_API_KEY, DEFAULT_API_SECRET, resolveConfig } from '../config/index.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { DEAD_CALLBACK } from '../testing/hostile-world.js';
import { KEY_SWEEP_INTERVAL_MS } from './retention.js';
import { IDEMPOTENCY_TTL_MS, KEPT_KEYS } from '../domain/idempotency.js';
import { createIdempotency } from './idempotency.js';

const count = (sb: TestSandbox, table: string) => (sb.deps.store.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const eventEntities = (sb: TestSandbox) =>
  (sb.deps.store.sqlite.prepare('SELECT entity_id FROM events ORDER BY rowid').all() as { entity_id: string }[]).map((r) => r.entity_id);

/** Emits one card.updated event per name, each in its own transaction, and lets retention run. */
async function emit(sb: TestSandbox, ...names: string[]) {
  for (const name of names) sb.deps.store.transaction(() => sb.deps.services.events.emit('card.updated', name, { id: name }));
  await new Promise((resolve) => setImmediate(resolve));
}

const names = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `card-${from + i}`);

describe('event retention', () => {
  it('keeps the newest --event-retention events, with their deliveries and attempts', async () => {
    const sb = createTestSandbox({ eventRetention: 5 });
    const hook = sb.deps.services.webhooks.put({ callbackUrl: DEAD_CALLBACK, types: ['card.updated'] });
    await emit(sb, ...names(1, 8));
    // Every delivery fails twice (the first retry is immediate) and waits for the next: pending, so nothing may go yet.
    await sb.deps.services.scheduler.advance(sb.deps.clock.now());
    expect(count(sb, 'attempts')).toBe(16);
    expect(eventEntities(sb)).toEqual(names(1, 8));

    // Deleting the webhook discards its pending deliveries: now the oldest three can go, with their rows.
    sb.deps.services.webhooks.remove(hook.id);
    await emit(sb, 'card-9');
    expect(eventEntities(sb)).toEqual(names(5, 9));
    expect(count(sb, 'deliveries')).toBe(4);
    expect(count(sb, 'attempts')).toBe(8);
    const listed = await sb.json('GET', '/_sandbox/events?limit=100');
    expect(listed.body.map((e: { entityId: string }) => e.entityId)).toEqual(names(5, 9).reverse());
  });

  it('never deletes an event with a pending delivery, however old', async () => {
    const sb = createTestSandbox({ eventRetention: 2 });
    sb.deps.services.webhooks.put({ callbackUrl: DEAD_CALLBACK, types: ['customer.updated'] });
    sb.deps.store.transaction(() => sb.deps.services.events.emit('customer.updated', 'customer-1', { id: 'customer-1' }));
    await emit(sb, ...names(1, 6));
    expect(eventEntities(sb)).toEqual(['customer-1', 'card-5', 'card-6']);
    expect(count(sb, 'deliveries')).toBe(1);
  });

  it('applies a lowered retention when a database is opened again', async () => {
    const before = createTestSandbox({ eventRetention: 100 });
    await emit(before, ...names(1, 10));
    const after = createTestSandbox({ eventRetention: 3 }, { store: before.deps.store });
    expect(eventEntities(after)).toEqual(names(8, 10));
  });

  it('is an option with an environment variable, refusing anything but a positive integer', () => {
    expect(resolveConfig({}, {}).eventRetention).toBe(10_000);
    expect(resolveConfig({ eventRetention: '50' }, { CARD_SANDBOX_EVENT_RETENTION: '7' }).eventRetention).toBe(50);
    expect(resolveConfig({}, { CARD_SANDBOX_EVENT_RETENTION: '7' }).eventRetention).toBe(7);
    for (const bad of ['0', '-1', '1.5', 'many']) expect(() => resolveConfig({ eventRetention: bad }, {}), bad).toThrow(ConfigError);
  });
});

describe('idempotency key expiry', () => {
  it('drops keys once their hour of sandbox time has passed; younger keys still replay', async () => {
    const sb = createTestSandbox();
    // A token per request: an hour of time travel expires the first.
    const put = (key: string) =>
      sb.json('PUT', '/v1/webhooks', {
        body: { callbackUrl: DEAD_CALLBACK, types: ['card.updated'] },
        headers: { 'Idempotency-Key': key },
        token: sb.deps.services.auth.issueToken(DEFAULT_API_KEY, DEFAULT_API_SECRET).token,
      });
    const old = randomUUID();
    await put(old);
    await sb.deps.services.scheduler.advance(sb.deps.clock.now() + IDEMPOTENCY_TTL_MS - KEY_SWEEP_INTERVAL_MS);
    const young = randomUUID();
    await put(young);
    expect(count(sb, 'idempotency_keys')).toBe(2);

    await sb.deps.services.scheduler.advance(sb.deps.clock.now() + KEY_SWEEP_INTERVAL_MS);
    expect(sb.deps.services.retention.prune().idempotencyKeys).toBe(1);
    expect(count(sb, 'idempotency_keys')).toBe(1);
    expect((await put(young)).headers.get('Idempotent-Replayed')).toBe('true');
  });
});

describe('idempotency keys kept', () => {
  // The service itself, with small bounds (a programme's own keeps KEPT_KEYS: 10,000 keys, 16 MiB of answers).
  const keys = (n: number) => Array.from({ length: n }, () => randomUUID());
  const answer = 'x'.repeat(100);
  const setUp = (kept: { count: number; bytes: number }, body = answer) => {
    const sb = createTestSandbox();
    const idempotency = createIdempotency(sb.deps.programmes.default().core, { kept, trimEvery: 1 });
    const send = (key: string) => {
      const claim = idempotency.claim('scope', key, 'print');
      if (claim.kind === 'claimed') idempotency.complete('scope', key, 201, {}, body);
      return claim.kind;
    };
    return { sb, send };
  };

  it('are the newest, at most the count: an older key runs again', () => {
    const { send } = setUp({ count: 3, bytes: 1_048_576 });
    const sent = keys(5);
    for (const key of sent) expect(send(key)).toBe('claimed');
    // Each claim trims before its own answer is kept: the newest three answers stay, and the one claimed now.
    expect(sent.slice(2).map(send)).toEqual(['replay', 'replay', 'replay']);
    expect(send(sent[0]!)).toBe('claimed');
  });

  it('are the newest whose answers fit the bytes between them', () => {
    // Two answers of 100 bytes and their headers (`{}`) fit in 204 bytes; a third does not.
    const { sb, send } = setUp({ count: 100, bytes: 204 });
    const sent = keys(4);
    for (const key of sent) send(key);
    expect(count(sb, 'idempotency_keys')).toBe(3);
    expect(send(sent[3]!)).toBe('replay');
    expect(send(sent[2]!)).toBe('replay');
    expect(send(sent[0]!)).toBe('claimed');
  });

  it('count bytes, not characters: an answer of 50 two-byte characters is 100 bytes', () => {
    const { sb, send } = setUp({ count: 100, bytes: 204 }, 'é'.repeat(50));
    const sent = keys(4);
    for (const key of sent) send(key);
    expect(count(sb, 'idempotency_keys')).toBe(3);
    expect(send(sent[0]!)).toBe('claimed');
  });

  it("are counted again after a restore: the restored answers are within the programme's bound at the next trim", async () => {
    const sb = createTestSandbox();
    const { core, services } = sb.deps.programmes.default();
    const done = () => sb.deps.store.sqlite.prepare("SELECT count(*) FROM idempotency_keys WHERE state = 'done'").pluck().get() as number;
    const answered = (n: number) => {
      for (const key of keys(n)) {
        expect(services.idempotency.claim('scope', key, 'f'.repeat(64)).kind).toBe('claimed');
        services.idempotency.complete('scope', key, 201, { 'content-type': 'application/json' }, answer);
      }
    };
    // A snapshot holding as many answers as the programme keeps.
    const insert = sb.deps.store.sqlite.prepare(
      "INSERT INTO idempotency_keys (programme_id, scope, key, fingerprint, state, status, headers, body, created_at, expires_at) VALUES ('default', 'scope', ?, ?, 'done', 201, '{}', ?, ?, ?)",
    );
    const now = core.clock.now();
    sb.deps.store.sqlite.transaction(() => {
      for (const key of keys(KEPT_KEYS.count)) insert.run(key, 'f'.repeat(64), answer, now, now + IDEMPOTENCY_TTL_MS);
    })();
    const saved = await sb.json('POST', '/_sandbox/snapshots', { token: false, body: { name: 'kept answers' } });
    expect(saved.status).toBe(201);
    // Then a world with few answers, trimmed once: the service knows how many it keeps.
    sb.deps.store.sqlite.prepare('DELETE FROM idempotency_keys').run();
    answered(500);
    expect(done()).toBe(500);

    expect((await sb.json('POST', `/_sandbox/snapshots/${saved.body.id}/restore`, { token: false })).status).toBe(200);
    expect(done()).toBe(KEPT_KEYS.count);
    // The next trim, 500 keys on, leaves the newest KEPT_KEYS.count answers and then the last key's.
    answered(500);
    expect(done()).toBe(KEPT_KEYS.count + 1);
  });

  it("are trimmed per programme: another programme's keep their answers", () => {
    const { sb, send } = setUp({ count: 2, bytes: 1_048_576 });
    const other = sb.deps.programmes.get(sb.deps.programmes.create({}).id);
    const theirs = createIdempotency(other.core, { kept: { count: 2, bytes: 1_048_576 }, trimEvery: 1 });
    const sendTheirs = (key: string) => {
      const claim = theirs.claim('scope', key, 'print');
      if (claim.kind === 'claimed') theirs.complete('scope', key, 201, {}, answer);
      return claim.kind;
    };
    const their = keys(2);
    for (const key of their) sendTheirs(key);
    // Five of the default programme's keys, claimed after theirs: its trims keep its own newest two only.
    for (const key of keys(5)) send(key);
    expect(their.map(sendTheirs)).toEqual(['replay', 'replay']);
  });
});
