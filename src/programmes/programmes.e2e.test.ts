/**
 * Programmes in a running sandbox (docs/programmes.md: Parallel test suites): eight driven at once over HTTP,
 * each through a whole journey and each with its own clock, see nothing of one another; programmes
 * and their clocks survive a restart on a file database; the CLI makes, lists and deletes them and
 * acts on one with --programme.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpProgramme, journey, type HttpProgramme, type Journey } from '../testing/http-world.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { runCommand } from '../testing/cli.js';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';

const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-programmes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(assertBuilt);

interface Made {
  id: string;
  apiKey: string;
  apiSecret: string;
  clock: { now: string; frozen: boolean };
}

const make = async (url: string, body: Record<string, unknown>): Promise<Made> => {
  const res = await fetch(`${url}/_sandbox/programmes`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(201);
  return (await res.json()) as Made;
};

describe('eight programmes at once', () => {
  let sandbox: RunningCli;
  let failing: Receiver;
  let delivered: Receiver;
  beforeAll(async () => {
    sandbox = await startSandbox(['--verify', 'off']);
    failing = await startTestReceiver(503);
    delivered = await startTestReceiver(200);
  });
  afterAll(async () => {
    await sandbox.stop();
    await failing.close();
    await delivered.close();
  });

  it('each drives a whole journey on its own clock, and nothing of one is visible to another', async () => {
    const START = '2026-03-01T09:00:00.000Z';
    // 0: 31 days ahead; 1: a day of failing deliveries; 2: a clock that runs and is never moved; 3–7: time travel as needed.
    const made = await Promise.all(Array.from({ length: 8 }, (_, i) => make(sandbox.url, i === 2 ? { name: `p${i}` } : { name: `p${i}`, clock: START })));
    const programmes: HttpProgramme[] = made.map((m) => httpProgramme({ url: sandbox.url, ...m }));
    const advance = (p: HttpProgramme) => async (by: string) => void p.expectOk(await p.control('POST', '/clock/advance', { by }), `advance ${by}`);
    await programmes[1]!.api('PUT', '/webhooks', { callbackUrl: `${failing.url}/hooks`, types: ['customer.updated'] });
    await programmes[3]!.api('PUT', '/webhooks', { callbackUrl: `${delivered.url}/hooks`, types: ['card.updated'] });

    const journeys: Journey[] = await Promise.all(programmes.map((p, i) => journey(p, `customer-${i}`, i === 2 ? undefined : advance(p))));
    await Promise.all([advance(programmes[0]!)('31d'), advance(programmes[1]!)('25h')]);

    const [all] = await Promise.all([fetch(`${sandbox.url}/_sandbox/programmes`).then((r) => r.json() as Promise<Made[]>)]);
    expect(all.map((p) => p.id)).toEqual(['default', ...made.map((m) => m.id)]);

    for (const [i, p] of programmes.entries()) {
      const own = journeys[i]!;
      const customers = (await p.api('GET', '/customers')).body as { id: string; externalId: string }[];
      expect(
        customers.map((c) => c.externalId),
        `programme ${i}`,
      ).toEqual([`customer-${i}`]);
      expect((await p.api('GET', '/cards')).body.map((c: { id: string }) => c.id)).toEqual([own.cardId]);
      const transactions = (await p.api('GET', `/cards/${own.cardId}/transactions`)).body as { id: string }[];
      expect(transactions).toHaveLength(1);
      const ids = new Set([...Object.values(own), transactions[0]!.id]);

      const events = (await p.control('GET', '/events?limit=1000')).body as {
        entityId: string;
        deliveries: { callbackUrl: string; attempts: number; status: string }[];
      }[];
      const entities = new Set(events.map((e) => e.entityId));
      expect(
        [...entities].filter((e) => !ids.has(e)),
        `programme ${i}`,
      ).toEqual([]);
      expect(entities).toEqual(ids);
      for (const other of journeys.filter((_, j) => j !== i)) for (const id of Object.values(other)) expect(entities.has(id)).toBe(false);

      const requests = (await p.control('GET', '/requests')).body as { path: string }[];
      for (const other of journeys.filter((_, j) => j !== i))
        expect(requests.some((r) => r.path.includes(other.customerId) || r.path.includes(other.cardId))).toBe(false);
      // Another programme's card is not there for this one's token.
      expect((await p.api('GET', `/cards/${journeys[(i + 1) % 8]!.cardId}`)).status).toBe(404);

      const deliveries = events.flatMap((e) => e.deliveries);
      if (i === 1) {
        // A day of retries to a failing receiver: every customer delivery discarded after its ~23 attempts.
        expect(deliveries.length).toBeGreaterThan(0);
        expect(deliveries.every((d) => d.status === 'discarded' && d.attempts > 20)).toBe(true);
      } else if (i === 3) expect(deliveries.length > 0 && deliveries.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
      else expect(deliveries).toEqual([]);
    }
    expect(failing.requests.every((r) => JSON.parse(r.body.toString()).webhookType === 'customer.updated')).toBe(true);
    expect(delivered.requests.every((r) => JSON.parse(r.body.toString()).webhookType === 'card.updated')).toBe(true);

    const clocks = await Promise.all(programmes.map(async (p) => (await p.control('GET', '/clock')).body as { now: string; frozen: boolean }));
    expect(clocks[0]).toEqual({ now: '2026-04-01T09:00:04.000Z', frozen: true });
    expect(clocks[1]).toEqual({ now: '2026-03-02T10:00:04.000Z', frozen: true });
    expect(clocks[2]!.frozen).toBe(false);
    expect(Math.abs(Date.parse(clocks[2]!.now) - Date.now())).toBeLessThan(60_000);
    for (const clock of clocks.slice(3)) expect(clock).toEqual({ now: '2026-03-01T09:00:04.000Z', frozen: true });
    // The default programme saw none of it.
    expect(await fetch(`${sandbox.url}/_sandbox/events`).then((r) => r.json())).toEqual([]);
  });

  // The client commands run in this process, through the CLI's own entry, against the same sandbox.
  it('creates, lists and deletes programmes, and client commands act on the one --programme names', async () => {
    const created = await runCommand(['programmes', 'create', '--name', 'ci-worker', '--clock', '2026-01-01T00:00:00Z', '--json', '--url', sandbox.url]);
    expect(created.code).toBe(0);
    const programme = JSON.parse(created.stdout) as Made & { name: string };
    expect(programme).toMatchObject({
      name: 'ci-worker',
      apiKey: expect.any(String),
      apiSecret: expect.any(String),
      clock: { now: '2026-01-01T00:00:00.000Z', frozen: true },
    });

    const human = await runCommand(['programmes', 'create', '--url', sandbox.url]);
    expect(human.stdout).toMatch(/✓ programme [0-9a-f-]{36} created/);
    expect(human.stdout).toMatch(/API secret +\S+ \(shown once\)/);

    const advanced = await runCommand(['clock', 'advance', '1h', '--json', '--url', sandbox.url], { CARD_SANDBOX_PROGRAMME: programme.id });
    expect(JSON.parse(advanced.stdout)).toEqual({ now: '2026-01-01T01:00:00.000Z', ran: 0 });
    const clock = await runCommand(['clock', '--json', '--url', sandbox.url, '--programme', programme.id]);
    expect(JSON.parse(clock.stdout)).toEqual({ now: '2026-01-01T01:00:00.000Z', frozen: true });

    const listed = await runCommand(['programmes', 'list', '--url', sandbox.url]);
    expect(listed.stdout).toMatch(/^ID +NAME +CLOCK/);
    expect(listed.stdout).toContain('ci-worker');
    expect(listed.stdout).toContain('2026-01-01T01:00:00.000Z (frozen)');

    const deleted = await runCommand(['programmes', 'delete', programme.id, '--url', sandbox.url]);
    expect(deleted.stdout).toContain(`✓ programme ${programme.id} deleted`);
    const gone = await runCommand(['clock', '--url', sandbox.url, '--programme', programme.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('Programme not found');
    const defaultOne = await runCommand(['programmes', 'delete', 'default', '--url', sandbox.url]);
    expect(defaultOne.code).toBe(1);
    expect(defaultOne.stderr).toContain('Programme cannot be deleted');
  });
});

describe('a file database', () => {
  it('keeps programmes, their worlds and their clocks across a restart', async () => {
    const db = join(dir, 'programmes.db');
    let sandbox = await startSandbox(['--db', db, '--verify', 'off']);
    const made = await make(sandbox.url, { name: 'kept', clock: '2026-03-01T09:00:00Z' });
    let p = httpProgramme({ url: sandbox.url, ...made });
    const customer = p.expectOk(
      await p.api('POST', '/customers', { chainId: 'eip155:11155111:0x70997970C51812dc3A010C7d01b50e0d17dc79C8', externalId: 'kept' }),
      'create',
    );
    p.expectOk(await p.control('POST', '/clock/advance', { by: '5d' }), 'advance');
    await sandbox.stop();

    sandbox = await startSandbox(['--db', db, '--verify', 'off']);
    try {
      p = httpProgramme({ url: sandbox.url, ...made });
      const listed = (await fetch(`${sandbox.url}/_sandbox/programmes`).then((r) => r.json())) as Made[];
      expect(listed.map((m) => m.id)).toEqual(['default', made.id]);
      expect((await p.control('GET', '/clock')).body).toEqual({ now: '2026-03-06T09:00:00.000Z', frozen: true });
      expect((await p.api('GET', `/customers/${customer.id}`)).body.externalId).toBe('kept');
      expect(((await fetch(`${sandbox.url}/_sandbox/clock`).then((r) => r.json())) as { frozen: boolean }).frozen).toBe(false);
    } finally {
      await sandbox.stop();
    }
  });
});
