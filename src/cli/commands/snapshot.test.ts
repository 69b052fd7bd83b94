/**
 * Snapshots from the terminal by name (docs/snapshots.md: The CLI): a name is the programme's one
 * snapshot of that name, so `snapshot restore|delete|export` take it for the id; and a file that
 * is a snapshot's header without its state is called what it is.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../client/operations.js';
import { cliContext } from '../../testing/cli.js';
import { createTestSandbox } from '../../testing/harness.js';
import { CommandFailed } from '../client.js';
import { createProgramme, deleteProgramme } from './programmes.js';
import { deleteSnapshot, exportSnapshot, restoreSnapshot, saveSnapshot } from './snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'snapshot-test-'));

async function withGolden() {
  const sb = createTestSandbox();
  await sb.json('POST', '/_sandbox/seed', { token: false, body: { customers: [{ externalId: 'a' }] } });
  const saved = cliContext(sb, { json: true });
  await saveSnapshot(saved, 'golden');
  return { sb, golden: JSON.parse(saved.stdout()) as { id: string; name: string } };
}

describe('snapshots by name', () => {
  it('restores, exports and deletes the snapshot a name names', async () => {
    const { sb, golden } = await withGolden();
    await sb.json('POST', '/_sandbox/reset', { token: false });
    const restored = cliContext(sb);
    await restoreSnapshot(restored, { id: 'golden' });
    expect(restored.stdout()).toMatch(
      new RegExp(`^✓ programme restored from snapshot ${golden.id} \\(golden\\)\\n  clock [^;]+; 1 customer, 0 accounts, 0 cards, `),
    );
    expect(sb.deps.services.customers.list()).toHaveLength(1);

    const file = join(dir, 'golden.json');
    await exportSnapshot(cliContext(sb), 'golden', file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ id: golden.id, name: 'golden' });

    const deleted = cliContext(sb, { json: true });
    await deleteSnapshot(deleted, 'golden');
    expect(JSON.parse(deleted.stdout())).toEqual({ deleted: golden.id });
    await expect(restoreSnapshot(cliContext(sb), { id: 'golden' })).rejects.toThrow(
      new CommandFailed('no snapshot of this programme is named "golden": `card-sandbox snapshot list` shows their ids and names'),
    );
  });

  it('makes a programme from the snapshot a name names, as restore does', async () => {
    const { sb } = await withGolden();
    const created = cliContext(sb, { json: true });
    await createProgramme(created, { from: 'golden' });
    const { id } = JSON.parse(created.stdout()) as { id: string };
    expect((await sb.json('GET', `/_sandbox/world/counts?programme=${id}`, { token: false })).body).toMatchObject({ customers: 1 });
    await expect(createProgramme(cliContext(sb), { from: 'silver' })).rejects.toThrow(/no snapshot of this programme is named "silver"/);
  });

  it('refuses a second snapshot of the same name with 409, keeping the first', async () => {
    const { sb, golden } = await withGolden();
    const error = (await saveSnapshot(cliContext(sb), 'golden').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.problem).toMatchObject({
      code: 'snapshot_name_taken',
      title: 'Snapshot name taken',
      detail: `programme default has a snapshot named "golden" already (${golden.id}): delete it first, or choose another name`,
    });
    expect(sb.deps.snapshots.list(sb.deps.programmes.default()).map((s) => s.name)).toEqual(['golden']);
    // Another programme may have its own golden.
    const { body } = await sb.json('POST', '/_sandbox/programmes', { token: false, body: {} });
    await saveSnapshot(cliContext(sb, { programme: body.id }), 'golden');
  });

  it('calls a file with a snapshot header and no state what it is', async () => {
    const sb = createTestSandbox();
    const file = join(dir, 'header-only.json');
    writeFileSync(file, JSON.stringify({ format: 'card-sandbox snapshot', version: 1, id: '9f0c5a8e-0a4e-4c59-9d7e-1d0c8f5b7a10', name: 'x' }));
    const error = (await restoreSnapshot(cliContext(sb), { file }).catch((e: unknown) => e)) as ApiError;
    expect(error.problem).toMatchObject({
      code: 'invalid_snapshot',
      detail: 'the file has a snapshot header but no "state": it holds no programme (was it cut short, or written by hand?)',
    });
  });
});

describe('programmes delete default', () => {
  it('points at the command that wipes it', async () => {
    const sb = createTestSandbox();
    const error = (await deleteProgramme(cliContext(sb), 'default').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(409);
    expect(error.problem).toMatchObject({
      code: 'default_programme',
      detail: 'the default programme cannot be deleted; wipe its world with `card-sandbox reset`',
    });
  });
});
