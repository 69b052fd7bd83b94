/**
 * Snapshots from the test companion (docs/snapshots.md): `sandbox.snapshot()`, `sandbox.restore()`
 * from a snapshot, its file or a path, and `createSandbox({ from })` in-process (a new sandbox, so
 * the file travels) and in a running sandbox (a fork there); a bad file leaves nothing behind.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';
import { createSandbox, type Sandbox } from './create-sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'companion-snapshots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An active customer, through the client alone. */
async function activeCustomer(sandbox: Sandbox, externalId: string) {
  const wallet = sandbox.wallet();
  const customer = await sandbox.client.createCustomer({ chainId: wallet.chainId, externalId });
  await sandbox.client.signCustomerChallenge(customer.id, wallet.signChallenge(customer.challenge));
  await sandbox.client.simulateVerifyCustomer(customer.id);
  return customer;
}

const externalIds = async (sandbox: Sandbox) => (await sandbox.client.getCustomers()).map((c) => c.externalId).sort();

describe('in-process', () => {
  let base: Sandbox;
  beforeAll(async () => {
    base = await createSandbox({ randomSeed: 7, clock: '2026-01-01T09:00:00Z' });
    await activeCustomer(base, 'alice');
  });
  afterAll(() => base?.close());

  test('snapshot() and restore(): from the snapshot, its file, or a path to it', async () => {
    const snapshot = await base.snapshot('alice');
    expect(snapshot).toMatchObject({ name: 'alice', clock: { now: '2026-01-01T09:00:00.000Z', frozen: true }, counts: { customers: 1 } });
    const file = await snapshot.file();
    expect(file.length).toBe(snapshot.bytes);
    const path = join(dir, 'alice.snapshot.json');
    writeFileSync(path, file);

    for (const source of [snapshot, file, path]) {
      await activeCustomer(base, 'bob');
      await base.clock.advance('1d');
      const { file: _, ...summary } = snapshot;
      expect(await base.restore(source)).toEqual(summary);
      expect(await externalIds(base)).toEqual(['alice']);
      expect(await base.clock.now()).toEqual(new Date('2026-01-01T09:00:00Z'));
    }
  });

  test('restore(): a receiver goes on with its subscription if the restored world holds it, and subscribes again if not', async () => {
    const without = await base.snapshot();
    const receiver = await base.webhooks.receiver({ types: ['customer.updated'] });
    const subscribed = receiver.webhookId;
    await base.restore(await base.snapshot());
    expect(receiver.webhookId).toBe(subscribed);
    expect((await base.client.getWebhooks()).map((hook) => hook.id)).toEqual([subscribed]);
    await base.restore(without);
    // The world restored held no subscription: the receiver made one again (the seeded draws give it the same id).
    expect((await base.client.getWebhooks()).map((hook) => hook.id)).toEqual([receiver.webhookId]);
    await activeCustomer(base, 'erin');
    expect(await receiver.waitFor('customer.updated', (c) => c.externalId === 'erin' && c.status === 'active')).toMatchObject({ externalId: 'erin' });
    await receiver.close();
    await base.restore(without);
  });

  test('createSandbox({ from }): a new sandbox starting from the snapshot, which goes its own way', async () => {
    const snapshot = await base.snapshot();
    await using copy = await createSandbox({ from: snapshot });
    expect(copy.url).not.toBe(base.url);
    expect(await externalIds(copy)).toEqual(['alice']);
    expect(await copy.clock.now()).toEqual(new Date('2026-01-01T09:00:00Z'));
    await activeCustomer(copy, 'carol');
    expect(await externalIds(copy)).toEqual(['alice', 'carol']);
    expect(await externalIds(base)).toEqual(['alice']);
  });

  test('createSandbox({ from }) a file that is not there: rejected, nothing left running', async () => {
    await expect(createSandbox({ from: join(dir, 'missing.json') })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('in a running sandbox', () => {
  let cli: RunningCli;
  beforeAll(async () => {
    assertBuilt();
    cli = await startSandbox(['--clock', '2026-01-01T09:00:00Z']);
  });
  afterAll(() => cli?.stop());

  const programmeCount = async () => ((await (await fetch(`${cli.url}/_sandbox/programmes`)).json()) as unknown[]).length;

  test('createSandbox({ url, from }) forks the snapshot there: a programme of its own with the same world', async () => {
    await using first = await createSandbox({ url: cli.url, clock: '2026-01-01T09:00:00Z' });
    await activeCustomer(first, 'dave');
    const snapshot = await first.snapshot();
    await using fork = await createSandbox({ url: cli.url, from: snapshot, name: 'fork' });
    expect(fork.programme).not.toBe(first.programme);
    expect(fork.apiKey).not.toBe(first.apiKey);
    expect(await externalIds(fork)).toEqual(['dave']);
    await first.reset();
    expect(await externalIds(fork)).toEqual(['dave']);
  });

  test('createSandbox({ url, from }) a bad file: the ApiError, and no programme left behind', async () => {
    const before = await programmeCount();
    await expect(createSandbox({ url: cli.url, from: Buffer.from('{"format":"card-sandbox snapshot","version":9}') })).rejects.toMatchObject({
      name: 'ApiError',
      status: 422,
      code: 'snapshot_version_unsupported',
    });
    expect(await programmeCount()).toBe(before);
  });
});
