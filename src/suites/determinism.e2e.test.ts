import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createClient } from '../client/index.js';
import { createSandbox } from '../companion/create-sandbox.js';
import { createWallet } from '../companion/wallet.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';

// docs/programmes.md: Deterministic runs. The same seed, a frozen clock and the same requests give the same
// answers byte for byte (bodies and Request-Id), the same journal and the same webhook bodies,
// run after run; another seed gives others.
const WALLET_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
const BILLING = { firstLine: '1 Main Street', city: 'London', country: 'GB', postCode: 'N1 1AA' };
const MISSING = '0b9e5f7a-2c4d-4e6f-8a1b-3c5d7e9f1a2b';

const started: (RunningCli | Receiver)[] = [];
afterAll(async () => {
  for (const thing of started) await ('stop' in thing ? thing.stop() : thing.close());
});

/** One run against `card-sandbox start --random-seed <seed>`: everything a golden-file test could compare. */
async function run(seed: number) {
  const cli = await startSandbox(['--random-seed', String(seed), '--clock', '2026-01-01T09:00:00Z', '--verify', 'strict']);
  const receiver = await startTestReceiver();
  started.push(cli, receiver);
  const control = async (method: string, path: string, body?: unknown) =>
    (
      await fetch(`${cli.url}/_sandbox${path}`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json();
  const answers: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    // The receiver's port is the one thing each run sends differently.
    const text = (await res.clone().text()).replaceAll(receiver.url, '<receiver>');
    answers.push(`${init?.method} ${new URL(String(input)).pathname} ${res.status} ${res.headers.get('Request-Id')} ${text}`);
    return res;
  };
  const client = createClient({ baseUrl: cli.url, apiKey: '11111111-1111-4111-8111-111111111111', apiSecret: 'sandbox-secret', fetch: recording });
  const wallet = createWallet({ privateKey: WALLET_KEY });

  await client.saveWebhook({
    callbackUrl: `${receiver.url}/hooks`,
    types: ['customer.updated', 'account.updated', 'card.updated', 'authorisation.updated', 'transaction.updated'],
  });
  const failing = await client.saveWebhook({ callbackUrl: 'http://127.0.0.1:9/hooks', types: ['card.updated'] });
  const customer = await client.createCustomer({ chainId: wallet.chainId, externalId: 'alice' });
  await client.signCustomerChallenge(customer.id, wallet.signChallenge(customer.challenge));
  await client.simulateVerifyCustomer(customer.id);
  const account = await client.createCustomerAccount(customer.id, { type: 'card_account', currencies: ['EUR'] });
  await client.signAccountChallenge(account.id, wallet.signChallenge(account.challenge));
  await control('POST', '/clock/advance', { by: '2s' });
  await client.getAccount(account.id);
  const card = await client.createAccountCard(account.id, { type: 'virtual', billingAddress: BILLING });
  await client.simulateIssueCard(card.id);
  await client.getCard(card.id);
  await client.simulateCardAuthorisation(card.id, { amount: '12.50', currency: 'USD' });
  await control('POST', '/clock/advance', { by: '2s' });
  await client.getCardTransactions(card.id);
  await client.getCustomer(MISSING).catch(() => undefined);

  // Every event delivered once to the receiver; a day of retries played for the failing webhook.
  const events = (await control('GET', '/events?limit=1000')) as { id: string; type: string }[];
  await receiver.waitFor(events.length);
  await control('POST', '/clock/advance', { by: '25h' });
  const retries = [];
  for (const event of events.filter((e) => e.type === 'card.updated')) {
    const detail = (await control('GET', `/events/${event.id}`)) as { deliveries: { webhookId: string; history: { at: string }[] }[] };
    retries.push(detail.deliveries.filter((d) => d.webhookId === failing.id).map((d) => d.history.map((h) => h.at)));
  }
  // Timings (durationMs, real) vary, Idempotency-Keys are the client's own random UUIDs, and the subscriptions'
  // bodies carry the receiver's port (so their bodyDigest): the rest of the journal repeats.
  type Entry = { path: string; requestId: string; durationMs: number; real?: unknown; idempotencyKey?: string; bodyDigest?: string };
  const journal = ((await control('GET', '/requests')) as Entry[]).map(({ durationMs: _, real: __, idempotencyKey: ___, ...entry }) => {
    if (entry.path !== '/v1/webhooks') return entry;
    const { bodyDigest: ____, ...rest } = entry;
    return rest;
  });
  const webhooks = receiver.requests.map((r) => r.body.toString('utf8')).sort();
  return { answers, journal, webhooks, retries };
}

describe('deterministic runs', () => {
  test('start --random-seed: the same seed repeats answers, journal, webhook bodies and retry times; another seed does not', async () => {
    assertBuilt();
    const [a, b, c] = await Promise.all([run(7), run(7), run(8)]);
    expect(a.answers.length).toBeGreaterThan(15);
    expect(b.answers).toEqual(a.answers);
    expect(b.journal).toEqual(a.journal);
    expect(b.webhooks).toEqual(a.webhooks);
    expect(b.retries).toEqual(a.retries);
    // A day of retries, drawn with jitter (docs/webhooks.md: Webhooks): the later waits are not whole seconds.
    expect(a.retries.flat(2).length).toBeGreaterThan(20);
    expect(a.retries.flat(2).some((at) => !at.endsWith('.000Z'))).toBe(true);

    for (const key of ['answers', 'journal', 'webhooks', 'retries'] as const) expect(c[key], key).not.toEqual(a[key]);
    const requestIds = (r: typeof a) => r.journal.map((entry) => (entry as { requestId: string }).requestId);
    expect(new Set([...requestIds(a), ...requestIds(c)]).size).toBe(requestIds(a).length + requestIds(c).length);
  });

  test('a seeded sandbox restarted on its --db goes on without drawing a kept id again', async () => {
    assertBuilt();
    const db = join(mkdtempSync(join(tmpdir(), 'card-sandbox-seeded-')), 'sandbox.db');
    const kept: string[] = [];
    let seeded: { id: string; apiKey: string; apiSecret: string } | undefined;
    for (const round of [1, 2]) {
      const cli = await startSandbox(['--random-seed', '3', '--db', db]);
      try {
        const customer = (credentials: { apiKey: string; apiSecret: string }) =>
          createClient({ baseUrl: cli.url, ...credentials }).createCustomer({ chainId: createWallet().chainId, externalId: `round-${round}` });
        kept.push((await customer({ apiKey: '11111111-1111-4111-8111-111111111111', apiSecret: 'sandbox-secret' })).id);
        // A programme made by the seeded sandbox, with a seed of its own, kept across the restart; then another.
        const made = await fetch(`${cli.url}/_sandbox/programmes`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ randomSeed: 4 }),
        });
        expect(made.status).toBe(201);
        const programme = (await made.json()) as { id: string; apiKey: string; apiSecret: string };
        kept.push(programme.id, programme.apiKey);
        seeded ??= programme;
        kept.push((await customer(seeded)).id);
      } finally {
        await cli.stop();
      }
    }
    expect(new Set(kept).size).toBe(kept.length);
  });

  test('createSandbox({ randomSeed }): a fresh sandbox gives the same programme, credentials, token and world', async () => {
    const world = async (randomSeed: number) => {
      await using sandbox = await createSandbox({ randomSeed, clock: '2026-01-01T09:00:00Z' });
      const wallet = sandbox.wallet();
      const customer = await sandbox.client.createCustomer({ chainId: wallet.chainId, externalId: 'alice' });
      return { programme: sandbox.programme, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret, token: await sandbox.client.token(), customer };
    };
    const [a, b, c] = [await world(7), await world(7), await world(8)];
    expect(b).toEqual(a);
    expect(c.customer.id).not.toBe(a.customer.id);
    expect(c.customer.challenge).not.toBe(a.customer.challenge);
    expect(c.apiKey).not.toBe(a.apiKey);
  });
});
