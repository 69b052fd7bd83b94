/**
 * Snapshots from the command line (docs/snapshots.md): `snapshot save|list|restore|delete|export`
 * and `programmes create --from` against a sandbox started by the built CLI, their human and
 * --json output and refusals; and `start --import` and `--export-on-exit`, a world carried from
 * one sandbox to the next through a file.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../testing/cli.js';
import { assertBuilt, runCli, startSandbox, type RunningCli } from '../testing/spawn.js';

const dir = mkdtempSync(join(tmpdir(), 'cli-snapshots-'));
let sandbox: RunningCli;

// The client commands run in this process, through the CLI's own entry; `start` is spawned.
const cli = (...args: string[]) => runCommand([...args, '--url', sandbox.url]);
const json = async (...args: string[]) => {
  const run = await cli(...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};
const counts = async (url: string, programme = 'default'): Promise<any> => (await fetch(`${url}/_sandbox/world/counts?programme=${programme}`)).json();

beforeAll(async () => {
  assertBuilt();
  sandbox = await startSandbox(['--clock', '2026-03-01T09:00:00Z', '--seed', 'fixtures/demo.json']);
});
afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('snapshot commands', () => {
  it('save, list, restore after a reset, export to a file and restore from it, fork, delete', async () => {
    const world = await counts(sandbox.url);
    expect(world.customers).toBeGreaterThan(0);

    const save = await cli('snapshot', 'save', '--name', 'demo');
    expect(save.code, save.stderr).toBe(0);
    const id = /snapshot (\S+) \(demo\) saved/.exec(save.stdout)![1]!;
    expect(save.stdout).toContain(`clock 2026-03-01T09:00:00.000Z (frozen); ${world.customers} customers`);
    const [listed] = await json('snapshot', 'list');
    expect(listed).toMatchObject({ id, name: 'demo', clock: { now: '2026-03-01T09:00:00.000Z', frozen: true }, counts: { customers: world.customers } });
    expect((await cli('snapshot', 'list')).stdout).toMatch(new RegExp(`^ID +NAME +CLOCK .*\\n${id} +demo +2026-03-01T09:00:00.000Z \\(frozen\\)`));

    await cli('reset');
    await cli('clock', 'advance', '30d');
    const restore = await cli('snapshot', 'restore', id);
    expect(restore).toMatchObject({ code: 0, stdout: expect.stringContaining(`✓ programme restored from snapshot ${id} (demo)`) });
    expect(await counts(sandbox.url)).toEqual(world);
    expect((await json('clock')).now).toBe('2026-03-01T09:00:00.000Z');

    const file = join(dir, 'demo.snapshot.json');
    expect(await json('snapshot', 'export', id, '--out', file)).toEqual({ id, file, bytes: listed.bytes });
    expect((await cli('snapshot', 'export', id)).stdout).toBe(`${readFileSync(file, 'utf8')}\n`);
    await cli('reset');
    expect(await json('snapshot', 'restore', '--file', file)).toEqual(listed);
    expect(await counts(sandbox.url)).toEqual(world);

    const fork = await json('programmes', 'create', '--from', id, '--name', 'forked');
    expect(fork).toMatchObject({ name: 'forked', clock: listed.clock, apiKey: expect.any(String), apiSecret: expect.any(String) });
    expect(await counts(sandbox.url, fork.id)).toEqual(world);

    expect(await json('snapshot', 'delete', id)).toEqual({ deleted: id });
    const gone = await cli('snapshot', 'restore', id);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe(`Snapshot not found: programme default has no snapshot with id ${id}\n`);
  });

  it('refuses a restore given both or neither of an id and a file, and a file it cannot read', async () => {
    for (const args of [
      ['snapshot', 'restore'],
      ['snapshot', 'restore', '0b9e5f7a-2c4d-4e6f-8a1b-3c5d7e9f1a2b', '--file', 'x.json'],
    ]) {
      const run = await cli(...args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('give a snapshot id or name, or --file <file>');
    }
    const missing = await cli('snapshot', 'restore', '--file', join(dir, 'missing.json'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read the snapshot file ${join(dir, 'missing.json')}: ENOENT`);
  });

  it('restore --file of a file that is not a snapshot: refused with exit 1, the problem printed', async () => {
    const file = join(dir, 'not-a-snapshot.json');
    writeFileSync(file, '{"customers":[]}');
    const run = await cli('snapshot', 'restore', '--file', file);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Invalid snapshot: this is not a snapshot file: it has no "format": "card-sandbox snapshot"\n');
  });
});

describe.concurrent('start --import and --export-on-exit', () => {
  it('carries the default programme from one sandbox to the next through a file, clock and all', async () => {
    const id = (await json('snapshot', 'save')).id;
    const file = join(dir, 'carried.snapshot.json');
    await json('snapshot', 'export', id, '--out', file);
    const world = await counts(sandbox.url);

    const exported = join(dir, 'on-exit.snapshot.json');
    const next = await startSandbox(['--import', file, '--export-on-exit', exported]);
    try {
      expect(JSON.parse(next.process.stdout().split('\n')[0]!).imported).toMatch(
        new RegExp(`^${file}: snapshot ${id}, clock 2026-03-01T09:00:00.000Z \\(frozen\\)`),
      );
      expect(await counts(next.url)).toEqual(world);
      await fetch(`${next.url}/_sandbox/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":"1h"}' });
    } finally {
      await next.stop();
    }
    expect(existsSync(exported)).toBe(true);

    const third = await startSandbox(['--import', exported]);
    try {
      expect(await counts(third.url)).toEqual(world);
      expect(((await (await fetch(`${third.url}/_sandbox/clock`)).json()) as { now: string }).now).toBe('2026-03-01T10:00:00.000Z');
    } finally {
      await third.stop();
    }
  });

  it('a file that cannot be restored stops the start with exit 2, naming --import', async () => {
    const file = join(dir, 'cut.snapshot.json');
    writeFileSync(file, '{"format":"card-sandbox snapshot","version":2,"state":{');
    const run = await runCli(['start', '--port', '0', '--import', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--import ${file}: the file is not JSON (cut short or corrupt?)`);
  });
});
