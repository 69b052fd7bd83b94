/**
 * The client commands as users run them: against a sandbox started by the built CLI (seeded with
 * fixtures/demo.json), each command's human and --json output, its refusals and their exit codes,
 * an unreachable URL, and the admin token. The first command of each family runs as the built CLI,
 * a process of its own; the others through the CLI's own entry in this process (testing/cli.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../testing/cli.js';
import { assertBuilt, freePort, runCli, spawnCli, startSandbox, waitForOutput, type RunningCli } from '../testing/spawn.js';

const dir = mkdtempSync(join(tmpdir(), 'cli-e2e-'));
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};

let sandbox: RunningCli;
let alice: { id: string; cardId: string };
let bob: { cardId: string };
let carol: { id: string };

/** A client command against the shared sandbox, in this process. */
const cli = (...args: string[]) => runCommand([...args, '--url', sandbox.url]);
/** The same as the built CLI, a process of its own. */
const binary = (...args: string[]) => runCli([...args, '--url', sandbox.url]);
/** The control plane directly, for what a test only needs to look at or set up. */
const control = async (method: string, path: string, body?: unknown): Promise<any> => {
  const res = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
};
const json = async (...args: string[]) => {
  const run = await cli(...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};

beforeAll(async () => {
  assertBuilt();
  sandbox = await startSandbox(['--clock', '2026-03-01T09:00:00Z']);
  const seeded = await json('seed', 'fixtures/demo.json');
  const [a, b, c] = seeded.customers;
  alice = { id: a.id, cardId: a.accounts[0].cards[0].id };
  bob = { cardId: b.accounts[0].cards[0].id };
  carol = { id: c.id };
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('help', () => {
  it('shows every command and examples', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['start', 'seed', 'clock', 'events', 'verify', 'reject', 'issue', 'fail', 'authorise', 'capture', 'release', 'reset'])
      expect(run.stdout).toContain(`  ${command} `);
    expect(run.stdout).toContain('$ card-sandbox clock advance 25h');
    const sub = await runCommand(['authorise', '--help']);
    expect(sub.stdout).toContain('--no-capture');
    expect(sub.stdout).toContain('$ card-sandbox authorise <cardId> --amount 12.50 --currency EUR');
    expect((await runCommand(['events', 'tail', '--help'])).stdout).toContain('$ card-sandbox events tail --json');
  });
});

describe('simulator commands', () => {
  it('verify moves a pending customer to active; a second verify is refused with exit 1', async () => {
    const run = await binary('verify', carol.id);
    expect(run).toMatchObject({ code: 0, stdout: `✓ customer ${carol.id} verified\n` });
    const again = await cli('verify', carol.id);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^Invalid request: .*active/);
  });

  it('refuses an unknown customer or card with the problem title and detail', async () => {
    const run = await cli('reject', '7c9e6679-7425-40de-944b-e07fc1f90ae7');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Customer not found: no customer with id 7c9e6679-7425-40de-944b-e07fc1f90ae7\n');
    const withJson = await cli('issue', 'not-a-uuid', '--json');
    expect(withJson.code).toBe(1);
    expect(JSON.parse(withJson.stdout)).toMatchObject({ status: 400, code: 'invalid_request', errors: [{ path: 'cardId' }] });
    expect(withJson.stderr).toContain('cardId');
  });

  it('issue activates a card; fail is then refused', async () => {
    expect((await cli('issue', bob.cardId)).stdout).toBe(`✓ card ${bob.cardId} issued\n`);
    const failed = await cli('fail', bob.cardId);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Invalid request');
  });

  it('authorise --no-capture holds; capture and release finish holds; release twice is refused', async () => {
    const held = await json('authorise', alice.cardId, '--amount', '12.50', '--currency', 'EUR', '--no-capture', '--merchant-name', 'Corner Shop');
    expect(held).toMatchObject({ status: 'pending', amount: '12.5', currency: 'EUR', merchant: { name: 'Corner Shop', mcc: 9999 } });
    expect((await cli('capture', held.id)).stdout).toBe(`✓ authorisation ${held.id} is being captured\n`);
    const other = await control('POST', `/simulator/cards/${alice.cardId}/authorisation`, { amount: '5', currency: 'EUR', capture: false });
    expect((await cli('release', other.id)).code).toBe(0);
    await control('POST', '/clock/advance', { by: '5s' });
    const twice = await cli('release', other.id);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('Invalid request');

    const bad = await cli('authorise', alice.cardId, '--amount', 'ten', '--currency', 'EUR');
    expect(bad.code).toBe(1);
    // The one field's problem, told once: in the detail, not again on a line of its own.
    expect(bad.stderr).toMatch(/^Invalid request: invalid body: amount: must be a decimal string/);
    expect(bad.stderr.match(/must be a decimal string/g)).toHaveLength(1);
  });
});

describe('clock', () => {
  it('shows and advances the clock; refuses junk naming by', async () => {
    const before = await json('clock');
    expect(before.frozen).toBe(true);
    const advanced = await json('clock', 'advance', 'PT1H');
    expect(Date.parse(advanced.now) - Date.parse(before.now)).toBe(3_600_000);
    const junk = await binary('clock', 'advance', 'tomorrow');
    expect(junk.code).toBe(1);
    expect(junk.stderr).toContain('by must be a positive ISO 8601 duration');
    expect(junk.stderr.match(/by must be/g)).toHaveLength(1);
    const both = await cli('clock', 'advance', '1h', '--to', '2030-01-01T00:00:00Z');
    expect(both.code).toBe(2);
  });
});

describe('events', () => {
  it('list, show and resend', async () => {
    const listed = await binary('events', '--type', 'card.updated');
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^CREATED\s+TYPE\s+ENTITY\s+STATUS\s+EVENT\s+DELIVERIES$/);
    expect(listed.stdout).toContain(bob.cardId);
    const [latest] = await control('GET', `/events?entityId=${bob.cardId}&limit=1`);
    expect(latest).toMatchObject({ type: 'card.updated', entityId: bob.cardId });
    const shown = await cli('events', 'show', latest.id);
    expect(shown.stdout).toContain('"status": "active"');
    expect(shown.stdout).toContain('no deliveries');
    const resent = await cli('events', 'resend', latest.id);
    expect(resent.stdout).toContain('nothing to resend');
    const unknown = await cli('events', 'show', '7c9e6679-7425-40de-944b-e07fc1f90ae7');
    expect(unknown).toMatchObject({ code: 1, stderr: 'Event not found: no event 7c9e6679-7425-40de-944b-e07fc1f90ae7\n' });
  });

  it('tail prints events as they happen and stops cleanly on Ctrl-C', async () => {
    const tail = spawnCli(['events', 'tail', '--json', '--url', sandbox.url]);
    await waitForOutput(tail, (_, stderr) => stderr.includes('following events'));
    const held = await control('POST', `/simulator/cards/${alice.cardId}/authorisation`, { amount: '2', currency: 'EUR', capture: false });
    const out = await waitForOutput(tail, (text) => text.includes(held.id));
    const line = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(line).toMatchObject({ kind: 'event', type: 'authorisation.updated', entityId: held.id, body: { status: 'pending' } });
    tail.child.kill('SIGINT');
    expect((await tail.exited).code).toBe(0);
  });
});

describe('seed and reset', () => {
  it('a broken document loads nothing and names the place; reset wipes the world', async () => {
    const before = (await control('GET', '/events?limit=1000')).length;
    const broken = await binary(
      'seed',
      file('broken.json', { customers: [{ externalId: 'new', accounts: [{ currencies: ['EUR'] }, { currencies: ['EUR'], cards: [{}, {}] }] }] }),
    );
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('  customers[0].accounts[1].cards[1] card_limit_reached');
    expect((await control('GET', '/events?limit=1000')).length).toBe(before);

    const seeded = await cli('seed', file('ok.json', { customers: [{ externalId: 'erin', accounts: [{ currencies: ['USD'], cards: [{}] }] }] }));
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toMatch(/^✓ seeded 1 customer, 1 account, 1 card and 0 webhooks/);
    const missing = await cli('seed', join(dir, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ENOENT');

    const reset = await json('reset');
    expect(reset.wiped.customers).toBe(4);
    expect(await control('GET', '/events')).toEqual([]);
  });
});

// The last tests start their own sandboxes or none: they run together.
describe.concurrent('reaching the sandbox', () => {
  it('says clearly when no sandbox answers, with exit 3', async () => {
    const port = await freePort();
    const run = await runCli(['clock', '--url', `http://127.0.0.1:${port}`]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`error no sandbox reachable at http://127.0.0.1:${port} (ECONNREFUSED) — start one with \`card-sandbox start\`\n`);
    const env = await runCommand(['clock'], { CARD_SANDBOX_URL: `http://127.0.0.1:${port}` });
    expect(env.code).toBe(3);
    const bad = await runCommand(['clock', '--url', 'localhost']);
    expect(bad.code).toBe(2);
  });

  it('needs the admin token when the sandbox has one, and works in strict verification mode', async () => {
    const guarded = await startSandbox(['--admin-token', 'open-sesame', '--verify', 'strict']);
    const token = { CARD_SANDBOX_ADMIN_TOKEN: 'open-sesame' };
    try {
      const refused = await runCli(['clock', '--url', guarded.url]);
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('Not authorised') });
      expect((await runCommand(['clock', '--url', guarded.url, '--admin-token', 'open-sesame'])).code).toBe(0);
      const seeded = await runCommand(['seed', 'fixtures/demo.json', '--json', '--url', guarded.url], token);
      expect(seeded.code).toBe(0);
      const pending = JSON.parse(seeded.stdout).customers[2];
      const verified = await runCommand(['verify', pending.id, '--url', guarded.url], token);
      expect(verified).toMatchObject({ code: 0, stdout: `✓ customer ${pending.id} verified\n` });
    } finally {
      await guarded.stop();
    }
  });
});

describe.concurrent('start --seed', () => {
  it('loads the world before serving', async () => {
    const seeded = await startSandbox(['--seed', 'fixtures/demo.json']);
    try {
      expect(seeded.process.stdout()).toContain('"seeded":"fixtures/demo.json: 3 customers, 0 webhooks"');
      const listed = (await (await fetch(`${seeded.url}/_sandbox/events?type=customer.updated`)).json()) as { entityId: string }[];
      expect(new Set(listed.map((e) => e.entityId)).size).toBe(3);
    } finally {
      await seeded.stop();
    }
  });

  it('refuses a broken seed file at start-up with exit 2, naming the place', async () => {
    const run = await runCli(['start', '--port', '0', '--seed', file('start.json', { customers: [{ externalId: 'a', accounts: [{ currencies: [] }] }] })]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('customers[0].accounts[0].currencies');
    const missing = await runCli(['start', '--port', '0', '--seed', join(dir, 'absent.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ENOENT');
  });
});
