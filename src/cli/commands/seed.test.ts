import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../kernel/paths.js';
import { cliContext } from '../../testing/cli.js';
import { createTestSandbox } from '../../testing/harness.js';
import { ClientUsageError } from '../client.js';
import { ApiError } from '../../client/operations.js';
import { seed } from './seed.js';
import { seedAtStart } from './start-sandbox.js';

const DEMO = packagePath('fixtures', 'demo.json');
const dir = mkdtempSync(join(tmpdir(), 'seed-test-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('seed <file>', () => {
  it('loads the file and prints what was created', async () => {
    const sb = createTestSandbox();
    const ctx = cliContext(sb);
    await seed(ctx, DEMO);
    const [alice] = sb.deps.services.customers.list();
    expect(ctx.stdout()).toMatch(/^✓ seeded 3 customers, 2 accounts, 2 cards and 0 webhooks from /);
    expect(ctx.stdout()).toContain(`  customer ${alice!.id} active demo-alice`);
  });

  it('counts one of a kind as one', async () => {
    const sb = createTestSandbox();
    const ctx = cliContext(sb);
    await seed(ctx, file('one.json', '{"customers":[{"externalId":"a","accounts":[{"currencies":["EUR"],"cards":[{}]}]}]}'));
    expect(ctx.stdout()).toMatch(/^✓ seeded 1 customer, 1 account, 1 card and 0 webhooks from /);
    expect(await seedAtStart(createTestSandbox().deps, join(dir, 'one.json'))).toBe(`${join(dir, 'one.json')}: 1 customer, 0 webhooks`);
  });

  it('points a snapshot file at snapshot restore --file, sending nothing', async () => {
    const sb = createTestSandbox();
    const snapshot = file('world.snapshot.json', sb.deps.snapshots.export(sb.deps.programmes.default()));
    await expect(seed(cliContext(sb), snapshot)).rejects.toThrow(
      new ClientUsageError(
        `${snapshot} is a snapshot file, not a seed world: put it back with \`card-sandbox snapshot restore --file ${snapshot}\`, or start with \`card-sandbox start --import ${snapshot}\``,
      ),
    );
    await expect(seedAtStart(sb.deps, snapshot)).rejects.toThrow(/is a snapshot file, not a seed world/);
  });

  it('reports the checks of the tree with those of the fields, not after they are fixed', async () => {
    const sb = createTestSandbox();
    const bad = file(
      'levels.json',
      '{"customers":[{"externalId":"a","status":"rejected","accounts":[{"currencies":["EUR"],"status":"pending","cards":[{"type":"plastic"}]}]}]}',
    );
    const error = (await seed(cliContext(sb), bad).catch((e: unknown) => e)) as ApiError;
    expect(error.problem!.errors).toEqual([
      { path: 'customers[0].accounts[0].cards[0].type', message: 'must be one of virtual, physical' },
      { path: 'customers[0].accounts', message: expect.stringContaining('a customer seeded as rejected cannot have accounts') },
      { path: 'customers[0].accounts[0].cards', message: expect.stringContaining('an account seeded as pending cannot have cards') },
    ]);
    expect(sb.deps.services.customers.list()).toEqual([]);
  });

  it('refuses a file that is missing or not JSON, sending nothing', async () => {
    const sb = createTestSandbox();
    await expect(seed(cliContext(sb), join(dir, 'missing.json'))).rejects.toThrow(
      new ClientUsageError(`cannot read the seed file ${join(dir, 'missing.json')}: ENOENT`),
    );
    await expect(seed(cliContext(sb), file('broken.json', '{"customers": ['))).rejects.toThrow(/is not JSON/);
  });

  it('surfaces the refusal naming the place, and nothing is loaded', async () => {
    const sb = createTestSandbox();
    const error = (await seed(cliContext(sb), file('bad.json', '{"customers":[{"externalId":"a","accounts":[{"currencies":["EUR","XXX"]}]}]}')).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error.problem!.errors).toEqual([
      { path: 'customers[0].accounts[0].currencies[1]', message: expect.stringContaining('must be one of EUR, USD, GBP') },
    ]);
    expect(sb.deps.services.customers.list()).toEqual([]);
  });
});

describe('start --seed', () => {
  it('loads into an empty sandbox and leaves a sandbox that already has a world alone', async () => {
    const sb = createTestSandbox();
    expect(await seedAtStart(sb.deps, DEMO)).toBe(`${DEMO}: 3 customers, 0 webhooks`);
    expect(await seedAtStart(sb.deps, DEMO)).toBe(`${DEMO} not loaded: the database already holds a world`);
    expect(sb.deps.services.customers.list()).toHaveLength(3);
  });

  it('names every bad place of a broken document', async () => {
    const sb = createTestSandbox();
    const broken = file('start.json', '{"customers":[{"externalId":"a","status":"initiating","accounts":[{"currencies":["EUR"]}]},{"status":"nope"}]}');
    const error = (await seedAtStart(sb.deps, broken).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ClientUsageError);
    expect(error.message).toContain('customers[1].externalId');
    expect(error.message).toContain('customers[1].status');
    expect(sb.deps.services.customers.list()).toEqual([]);
  });
});
