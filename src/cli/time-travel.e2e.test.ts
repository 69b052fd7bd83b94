/**
 * Time travel as users drive it: `card-sandbox clock advance` against a sandbox started by the
 * built CLI runs a day of failing webhook retries, a 30-day hold window and a 3-year card expiry
 * in single calls, each job at its own due time, and answers only once the deliveries it started
 * have finished.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { runCommand } from '../testing/cli.js';
import { assertBuilt, spawnCli, startSandbox, waitForOutput, type RunningCli } from '../testing/spawn.js';

const DAY = 86_400_000;

let sandbox: RunningCli;
let receiver: Receiver;
let holdCard: string;
let expiringCard: string;

// The commands run in this process, through the CLI's own entry; `events tail`, which runs until stopped, is spawned.
const cliJson = async (...args: string[]) => {
  const run = await runCommand([...args, '--json', '--url', sandbox.url]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};

/** A /v1 request with a fresh token (tokens expire with sandbox time); verification is in warn mode. */
async function api(method: string, path: string): Promise<any> {
  const auth = await fetch(`${sandbox.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET }),
  });
  const { token } = (await auth.json()) as { token: string };
  const res = await fetch(`${sandbox.url}/v1${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
  return res.status === 204 ? undefined : res.json();
}

beforeAll(async () => {
  assertBuilt();
  receiver = await startTestReceiver(500);
  sandbox = await startSandbox(['--clock', '2026-03-01T09:00:00Z']);
  const res = await fetch(`${sandbox.url}/_sandbox/seed`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      webhooks: [{ callbackUrl: `${receiver.url}/hooks`, types: ['authorisation.updated'] }],
      customers: [
        {
          externalId: 'traveller',
          accounts: [
            { currencies: ['EUR'], cards: [{}] },
            { currencies: ['EUR'], cards: [{}] },
          ],
        },
      ],
    }),
  });
  const { customers } = (await res.json()) as { customers: { accounts: { cards: { id: string }[] }[] }[] };
  holdCard = customers[0]!.accounts[0]!.cards[0]!.id;
  expiringCard = customers[0]!.accounts[1]!.cards[0]!.id;
});

afterAll(async () => {
  await sandbox?.stop();
  await receiver?.close();
});

describe('clock advance', () => {
  let held: { id: string };

  it('runs 24 h of failing webhook retries in one call, then the delivery is discarded; tail shows each attempt', async () => {
    const tail = spawnCli(['events', 'tail', '--json', '--type', 'authorisation.updated', '--url', sandbox.url]);
    await waitForOutput(tail, (_, stderr) => stderr.includes('following events'));
    held = await cliJson('authorise', holdCard, '--amount', '40', '--currency', 'EUR', '--no-capture');
    const [event] = await cliJson('events', 'list', '--entity', held.id);

    const advanced = await cliJson('clock', 'advance', '25h');
    expect(advanced.now).toBe('2026-03-02T10:00:00.000Z');
    expect(advanced.ran).toBeGreaterThan(15);

    const shown = await cliJson('events', 'show', event.id);
    const [delivery] = shown.deliveries;
    expect(delivery.status).toBe('discarded');
    expect(delivery.attempts).toBe(delivery.history.length);
    // Every attempt had finished when advance answered.
    expect(receiver.requests).toHaveLength(delivery.attempts);
    const at = delivery.history.map((a: { at: string }) => Date.parse(a.at));
    const first = at[0];
    expect(at.slice(0, 5).map((t: number) => t - first)).toEqual([0, 0, 1000, 3000, 7000]);
    expect(at.every((t: number, i: number) => i === 0 || t >= at[i - 1])).toBe(true);
    expect(at.at(-1) - first).toBeLessThan(DAY);
    expect(at.at(-1) - first).toBeGreaterThan(DAY - 2 * 3_600_000);
    expect(delivery.history.every((a: { statusCode: number }) => a.statusCode === 500)).toBe(true);

    const lines = () =>
      tail
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    await waitForOutput(tail, () => lines().filter((l) => l.kind === 'attempt').length === delivery.attempts);
    tail.child.kill('SIGINT');
    await tail.exited;
    expect(lines()[0]).toMatchObject({ kind: 'event', id: event.id, body: { status: 'pending' } });
    expect(lines().at(-1)).toMatchObject({ kind: 'attempt', eventId: event.id, attempt: delivery.attempts, statusCode: 500, status: 'discarded' });
  });

  it('keeps a hold on a terminated card for 30 days, then releases it', async () => {
    await api('DELETE', `/cards/${holdCard}`);
    expect((await api('GET', `/cards/${holdCard}`)).status).toBe('terminated');
    await cliJson('clock', 'advance', '29d');
    expect((await api('GET', `/authorisations/${held.id}`)).status).toBe('pending');
    await cliJson('clock', 'advance', 'P2D');
    expect((await api('GET', `/authorisations/${held.id}`)).status).toBe('released');
  });

  it('ends a card when the clock passes the end of its expiry month, three years on', async () => {
    const card = await api('GET', `/cards/${expiringCard}`);
    expect(card).toMatchObject({ status: 'active', expirationDate: '03/2029' });
    await cliJson('clock', 'advance', '--to', '2029-03-31T23:59:59Z');
    expect((await api('GET', `/cards/${expiringCard}`)).status).toBe('active');
    await cliJson('clock', 'advance', '2s');
    expect((await api('GET', `/cards/${expiringCard}`)).status).toBe('terminated');
    const [latest] = await cliJson('events', 'list', '--entity', expiringCard, '--limit', '1');
    expect(latest.createdAt).toBe('2029-04-01T00:00:00.000Z');
  });
});
