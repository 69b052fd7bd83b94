/**
 * A snapshot file checked to the value (docs/snapshots.md: The file): files crafted with a digest
 * that matches — as anyone can recompute one — each with one value no programme could hold: faults
 * the dispatcher cannot act on, an instant past the range of time, a body that is no webhook body,
 * a callback URL the sandbox would refuse, a reference to nothing. Each is refused with a 400 naming
 * the place, and nothing changes. A restore that fails after it has begun — in the database or in
 * memory — leaves the programme as it was, in memory as in the database.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { programmeState } from '../testing/snapshots.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';

const CURRENT = readFileSync(new URL('./fixtures/version-3.snapshot.json', import.meta.url), 'utf8');
const VERSION_1 = readFileSync(new URL('./fixtures/version-1.snapshot.json', import.meta.url), 'utf8');

/** The file with its state changed and its digest made to match. */
function crafted(file: string, change: (state: any) => void): string {
  const json = JSON.parse(file);
  change(json.state);
  json.sha256 = createHash('sha256').update(JSON.stringify(json.state)).digest('hex');
  return JSON.stringify(json);
}

const control = (sb: TestSandbox, method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });

/** A sandbox holding the fixture's world, and a request or two since. */
async function sandbox() {
  const sb = createTestSandbox();
  expect((await control(sb, 'POST', '/snapshots/restore', CURRENT)).status).toBe(200);
  await control(sb, 'POST', '/seed', { customers: [{ externalId: 'since' }] });
  await control(sb, 'PUT', '/api/faults', { rules: [{ match: { method: 'GET' }, latency: '10ms' }] });
  await sb.json('GET', '/v1/customers');
  return sb;
}

const EVENT = 'world.events.0';
const OUT_OF_RANGE = '+275760-09-13T00:00:00.000Z';

describe('a snapshot file crafted with a digest that matches', () => {
  it.each<[string, (state: any) => void, string, RegExp]>([
    [
      "a subscription's faults failing with no times nor rate",
      (s) => (s.world.webhooks[0].faults = { fail: { status: 503 } }),
      'world.webhooks.0.faults',
      /fail/,
    ],
    [
      "a subscription's delay running backwards",
      (s) => (s.world.webhooks[0].faults = { delay: { minMs: 9, maxMs: 1 } }),
      'world.webhooks.0.faults',
      /minMs must be at most maxMs/,
    ],
    ["a subscription's faults that are a word", (s) => (s.world.webhooks[0].faults = 'everything'), 'world.webhooks.0.faults', /object/],
    ["the programme's faults with a probability of 7", (s) => (s.webhookFaults = { duplicate: 7 }), 'webhookFaults.duplicate', /probability/],
    ['a creation time past the range of time', (s) => (s.world.customers[0].createdAt = OUT_OF_RANGE), 'world.customers.0.createdAt', /RFC 3339/],
    [
      'a creation time before 1970',
      (s) => (s.world.customers[0].createdAt = '1969-12-31T23:59:59.999Z'),
      'world.customers.0.createdAt',
      /1970-01-01T00:00:00\.000Z to 9999/,
    ],
    ['a due time that is a number', (s) => (s.world.jobs[0].dueAt = 9e15), 'world.jobs.0.dueAt', /RFC 3339/],
    ['a clock past the range of time', (s) => (s.clock.now = OUT_OF_RANGE), 'clock.now', /RFC 3339/],
    ['a clock in the year 10000', (s) => (s.clock.now = '10000-01-01T00:00:00.000Z'), 'clock.now', /RFC 3339/],
    ["a journal entry's time past the range", (s) => (s.journal[0].time = '0000-01-01T00:00:00.000Z'), 'journal.0.time', /1970/],
    ['an event body that is not JSON', (s) => (s.world.events[0].body = '{"webhookType":'), `${EVENT}.body`, /JSON text of a webhook body/],
    [
      'an event body of another type',
      (s) => (s.world.events[0].body = JSON.stringify({ ...JSON.parse(s.world.events[0].body), webhookType: 'card.updated' })),
      `${EVENT}.body`,
      /webhook body/,
    ],
    ['an event body naming another event', (s) => (s.world.events[0].body = s.world.events[1].body), `${EVENT}.body`, /eventId/],
    ['a callback URL of a file', (s) => (s.world.webhooks[0].callbackUrl = 'file:///etc/passwd'), 'world.webhooks.0.callbackUrl', /http:\/\/ or https:\/\//],
    ["a delivery's callback URL of a file", (s) => (s.world.deliveries[0].callbackUrl = 'file:///etc/passwd'), 'world.deliveries.0.callbackUrl', /http/],
    ['an API fault of status 999', (s) => (s.apiFaults.shown.rules[0].status = 999), 'apiFaults.shown.rules.0.status', /./],
    [
      'an authorisation of no card',
      (s) => (s.world.authorisations[0].cardId = '0b9e5f7a-2c4d-4e6f-8a1b-3c5d7e9f1a2b'),
      'world.authorisations.0.cardId',
      /names no card/,
    ],
    ['an attempt of a negative duration', (s) => (s.world.attempts[0].durationMs = -1), 'world.attempts.0.durationMs', /integer from 0/],
    ['an attempt answered 42', (s) => (s.world.attempts[0].statusCode = 42), 'world.attempts.0.statusCode', /integer from 100 to 599/],
    ['a card that is a number', (s) => (s.world.cards[0] = 1), 'world.cards.0', /must be an object/],
    ['a balance that is no decimal', (s) => (s.world.accounts[0].balance = 'lots'), 'world.accounts.0.balance', /decimal string/],
    ['a balance left out', (s) => delete s.world.accounts[0].balance, 'world.accounts.0.balance', /missing/],
    ['a boolean that is 1', (s) => (s.world.cards[0].cascadeDeactivated = 1), 'world.cards.0.cascadeDeactivated', /true or false/],
    ['an address with no city', (s) => delete s.world.cards[0].billingAddress.city, 'world.cards.0.billingAddress', /city/],
    [
      'an address with no city after one accepted with it, the rest of it the same',
      (s) => {
        const { city: _, ...rest } = s.world.cards[0].billingAddress;
        s.world.cards[1].billingAddress = rest;
      },
      'world.cards.1.billingAddress',
      /city/,
    ],
    // Each text the API reads back, by the rule the API applies to it: none of these answers 500 once restored.
    ['an authorisation amount that is a word', (s) => (s.world.authorisations[0].amount = 'abc'), 'world.authorisations.0.amount', /Invalid string/],
    ['a transaction currency that is no ISO 4217 code', (s) => (s.world.transactions[0].currency = 'euro'), 'world.transactions.0.currency', /./],
    ['an account of no currency', (s) => (s.world.accounts[0].currencies = []), 'world.accounts.0.currencies', /at least one currency/],
    ['an account of a currency it cannot hold', (s) => (s.world.accounts[0].currencies = ['XXX']), 'world.accounts.0.currencies', /must be one of/],
    ["a customer's chain id that is a word", (s) => (s.world.customers[0].chainId = 'garbage'), 'world.customers.0.chainId', /CAIP-10/],
    ["an account's chain id that is a word", (s) => (s.world.accounts[0].chainId = 'garbage'), 'world.accounts.0.chainId', /CAIP-10/],
    ['a token that is no asset id', (s) => (s.world.transactions[0].token = 'USDC'), 'world.transactions.0.token', /CAIP-19/],
    ['a card expiring in month 13', (s) => (s.world.cards[0].expirationDate = '13/2029'), 'world.cards.0.expirationDate', /MM\/YYYY/],
    ['a card id that is no UUID', (s) => (s.world.cards[0].id = 'card-1'), 'world.cards.0.id', /UUID/],
    ['a kept answer of no status', (s) => (s.world.idempotencyKeys[0].status = null), 'world.idempotencyKeys.0.status', /must be set once the request is done/],
    ['a kept answer of status 101', (s) => (s.world.idempotencyKeys[0].status = 101), 'world.idempotencyKeys.0.status', /integer from 200 to 499/],
    [
      'a kept answer still in flight',
      (s) => (s.world.idempotencyKeys[0].state = 'in_flight'),
      'world.idempotencyKeys.0.status',
      /null while the request is in flight/,
    ],
    [
      'a kept header that breaks a line',
      (s) => (s.world.idempotencyKeys[0].headers = { 'content-type': 'application/json\r\nx: 1' }),
      'world.idempotencyKeys.0.headers',
      /visible ASCII/,
    ],
    ['a kept header the sandbox never keeps', (s) => (s.world.idempotencyKeys[0].headers = { 'set-cookie': 'a=1' }), 'world.idempotencyKeys.0.headers', /./],
    ['a key that is no UUID', (s) => (s.world.idempotencyKeys[0].key = 'again'), 'world.idempotencyKeys.0.key', /UUID/],
    ['a fingerprint that is no SHA-256', (s) => (s.world.idempotencyKeys[0].fingerprint = 'x'), 'world.idempotencyKeys.0.fingerprint', /SHA-256/],
    ['a random stream past 32 bits', (s) => (s.random.main.words[0] = 2 ** 40), 'random.main.words.0', /./],
  ])('%s: 400 naming the place, and nothing changes', async (_, change, path, message) => {
    const sb = await sandbox();
    const before = await programmeState(sb);
    const refused = await control(sb, 'POST', '/snapshots/restore', crafted(CURRENT, change));
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_snapshot');
    const error = (refused.body.errors as { path: string; message: string }[]).find((e) => e.path.startsWith(`state.${path}`));
    expect(error, JSON.stringify(refused.body.errors)).toBeDefined();
    expect(error!.message).toMatch(message);
    expect(await programmeState(sb)).toEqual(before);
    // The programme goes on: its clock moves and what falls due runs.
    expect((await control(sb, 'POST', '/clock/advance', { by: '1h' })).status).toBe(200);
  });

  it.each<[string, (state: any) => void, string]>([
    ['a creation time of 9e15 ms', (s) => (s.tables.customers.rows[0][s.tables.customers.columns.indexOf('created_at')] = 9e15), 'world.customers.0.createdAt'],
    ['a clock of 1e16 ms', (s) => (s.clock.now = 1e16), 'clock.now'],
    ['a faults cell that is not JSON', (s) => (s.tables.webhooks.rows[0][s.tables.webhooks.columns.indexOf('faults')] = '{"fail":'), 'world.webhooks.0.faults'],
    ['a table without its columns', (s) => delete s.tables.cards.columns, 'tables.cards'],
  ])('version 1, %s: 400 naming the place, and nothing changes', async (_, change, path) => {
    const sb = await sandbox();
    const before = await programmeState(sb);
    const refused = await control(sb, 'POST', '/snapshots/restore', crafted(VERSION_1, change));
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toContain(`state.${path}`);
    expect(await programmeState(sb)).toEqual(before);
  });

  it('rows that clash in the database (two customers of one id): 400, and nothing changes, in this programme or another', async () => {
    const sb = await sandbox();
    const other = (await control(sb, 'POST', '/programmes', {})).body.id as string;
    await sb.json('POST', '/_sandbox/seed', { body: { customers: [{ externalId: 'elsewhere' }] }, token: false, headers: { 'Sandbox-Programme': other } });
    // Its clock runs in real time: all the rest must stay still.
    const still = async () => ({ ...(await programmeState(sb, other)), clock: undefined });
    const otherBefore = await still();
    const before = await programmeState(sb);
    const refused = await control(
      sb,
      'POST',
      '/snapshots/restore',
      crafted(CURRENT, (s) => {
        const chainId: string = s.world.customers[0].chainId;
        s.world.customers.push({ ...s.world.customers[0], externalId: 'twin', chainId: `${chainId.slice(0, -1)}${chainId.endsWith('0') ? '1' : '0'}` });
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/rows do not fit together .* nothing was restored/);
    expect(await programmeState(sb)).toEqual(before);
    // The write was one transaction: the other programme's rows and journal are as they were, and it goes on.
    expect(await still()).toEqual(otherBefore);
    const seeded = await sb.json('POST', '/_sandbox/seed', {
      body: { customers: [{ externalId: 'after' }] },
      token: false,
      headers: { 'Sandbox-Programme': other },
    });
    expect(seeded.status).toBe(201);
  });

  it('a restore that fails once the memory is being put back leaves it as it was: clock, journal, API and delivery faults', async () => {
    const sb = await sandbox();
    await control(sb, 'PUT', '/webhooks/faults', { duplicate: 0.5 });
    await control(sb, 'POST', '/clock/advance', { by: '3d' });
    const before = await programmeState(sb);
    // The journal's listener fails when the restored journal replaces it: the last step in memory.
    const unsubscribe = sb.deps.journal.subscribe({
      added: () => undefined,
      cleared: () => {
        throw new Error('a listener that breaks');
      },
    });
    const failed = await control(sb, 'POST', '/snapshots/restore', CURRENT);
    unsubscribe();
    expect(failed.status).toBeGreaterThanOrEqual(400);
    const after = await programmeState(sb);
    // The refused request itself is journalled nowhere (control plane), so all is as it was.
    expect(after).toEqual(before);
  });
});
