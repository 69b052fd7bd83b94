/**
 * Faults for suites built on `createSandbox({ url })` (docs/go-live.md: In CI): the companion's
 * webhook faults beside its API faults, a programme made with its faults, and a sandbox started with
 * --faults-everywhere, whose every new programme meets --webhook-faults and --api-faults.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';
import { createSandbox } from './create-sandbox.js';

const programmes = async (url: string) => ((await (await fetch(`${url}/_sandbox/programmes`)).json()) as { id: string }[]).map((p) => p.id);

describe('the companion', () => {
  test('sets, shows and clears webhook faults, written as the CLI writes them or as an object', async () => {
    await using sandbox = await createSandbox({ faults: { webhooks: 'forge=0.3,duplicate=0.2', api: [{ expireToken: true, times: 1 }] } });
    expect(await sandbox.faults.webhooks.get()).toEqual({ scope: 'programme', faults: { forge: 0.3, duplicate: 0.2 } });
    expect((await sandbox.faults.api.get()).rules).toEqual([expect.objectContaining({ expireToken: true, times: 1 })]);
    expect(await sandbox.faults.webhooks.set({ reorder: 0.5 })).toEqual({ scope: 'programme', faults: { reorder: 0.5 } });
    await sandbox.faults.webhooks.clear();
    expect(await sandbox.faults.webhooks.get()).toEqual({ scope: 'programme', faults: {} });
    await expect(sandbox.faults.webhooks.set('forge=2')).rejects.toMatchObject({ status: 400 });
  });

  test('refuses a fault it does not know by name, and leaves no programme behind', async () => {
    await using home = await createSandbox();
    await expect(createSandbox({ url: home.url, faults: { webhooks: 'forgery=0.3' } })).rejects.toThrow(/webhook faults: forgery is not a fault/);
    expect(await programmes(home.url)).toEqual(['default', home.programme]);
  });
});

describe('card-sandbox start --faults-everywhere', () => {
  let running: RunningCli;
  beforeAll(async () => {
    assertBuilt();
    running = await startSandbox([
      '--faults-everywhere',
      '--webhook-faults',
      'forge=0.3',
      '--api-faults',
      '{"rules":[{"match":{"method":"POST"},"status":503,"effect":"after","rate":0.2}]}',
    ]);
  });
  afterAll(() => running?.stop());

  test('gives every programme made the faults the default one has', async () => {
    await using sandbox = await createSandbox({ url: running.url });
    expect(await sandbox.faults.webhooks.get()).toEqual({ scope: 'programme', faults: { forge: 0.3 } });
    expect((await sandbox.faults.api.get()).rules).toEqual([expect.objectContaining({ match: { method: 'POST' }, status: 503, effect: 'after', rate: 0.2 })]);
    // Its own, to change as it likes.
    await sandbox.faults.webhooks.clear();
    const other = await createSandbox({ url: running.url });
    expect((await other.faults.webhooks.get()).faults).toEqual({ forge: 0.3 });
    await other.close();
  });
});
