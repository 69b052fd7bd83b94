/**
 * Snapshot files across versions (docs/snapshots.md: Versions of the file): a file this release
 * wrote, kept in the repository, restores; a file the release before wrote (version 1, kept as
 * SQLite's columns) restores to the same world, from a file or kept in a database; a column added
 * to the database by a later migration changes neither the files written nor those read; a file
 * of a version this sandbox cannot read is a 422 naming the versions, never a 500.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { afterAll, describe, expect, it } from 'vitest';
import { programmeState } from '../testing/snapshots.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { buildFixtureWorld } from '../testing/snapshot-world.js';
import { openStore } from '../store/store.js';
import { WORLD_TABLES } from '../store/world.js';
import { SNAPSHOT_VERSION } from './file.js';
import { FORMAT_TABLES } from './tables.js';

const fixture = (version: number) => readFileSync(new URL(`./fixtures/version-${version}.snapshot.json`, import.meta.url), 'utf8');
const VERSION_3 = fixture(3);
const VERSION_2 = fixture(2);
const VERSION_1 = fixture(1);

const control = (sb: TestSandbox, method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });
const restoreFile = (sb: TestSandbox, file: string) => control(sb, 'POST', '/snapshots/restore', file);
/** Restored in-process: no control request draws its id from the restored streams before they are compared. */
const restoreInProcess = (sb: TestSandbox, file: string) => sb.deps.snapshots.restoreFile(sb.deps.programmes.default(), Buffer.from(file));
const exported = (sb: TestSandbox) => JSON.parse(sb.deps.snapshots.export(sb.deps.programmes.default())) as { version: number; state: any };

/** A state to compare: the journal's durations are real time, the rest is the world's. */
const comparable = (state: any) => ({ ...state, journal: state.journal.map(({ durationMs: _, ...entry }: { durationMs: number }) => entry) });

/** What the programme serves: every list and every event, as a client reads them. */
async function served(sb: TestSandbox) {
  const { world, clock, events, apiFaults } = await programmeState(sb);
  for (const event of events) expect((await sb.json('GET', `/_sandbox/events/${event.id}`, { token: false })).body).toEqual(event);
  return { world, clock, events, apiFaults };
}

describe('snapshot files across versions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-versions-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the fixture is a file of the version this release writes', () => {
    expect(JSON.parse(VERSION_3).version).toBe(SNAPSHOT_VERSION);
  });

  it('restores the file this release wrote, kept in the repository, exactly', async () => {
    const sb = createTestSandbox();
    const restored = await restoreInProcess(sb, VERSION_3);
    expect(restored.counts).toMatchObject({ customers: 4, accounts: 3, cards: 3, authorisations: 2, transactions: 1, webhooks: 1, idempotencyKeys: 1 });
    expect(exported(sb).state).toEqual(JSON.parse(VERSION_3).state);
    await served(sb);
  });

  it('writes the world it restored from the fixture back byte for byte, and its digest', async () => {
    const sb = createTestSandbox();
    await restoreInProcess(sb, VERSION_3);
    const written = sb.deps.snapshots.export(sb.deps.programmes.default());
    const stateOf = (file: string) => file.slice(file.indexOf(',"state":'));
    expect(stateOf(written)).toBe(stateOf(VERSION_3));
    expect(JSON.parse(written).sha256).toBe(JSON.parse(VERSION_3).sha256);
  });

  it('writes every text as JSON.stringify does: quotes, controls, NUL, lines, emoji, a lone surrogate', async () => {
    const name = 'a"b\\c\n\t\u0000\u001f\u007f\u2028é€😀 \ud800 end';
    const file = JSON.parse(VERSION_3);
    file.state.world.cards[0].name = name;
    file.state.world.cards[0].shippingAddress = null;
    file.sha256 = createHash('sha256').update(JSON.stringify(file.state)).digest('hex');
    const sb = createTestSandbox();
    await restoreInProcess(sb, JSON.stringify(file));
    const written = sb.deps.snapshots.export(sb.deps.programmes.default());
    const state = written.slice(written.indexOf(',"state":') + 9, -1);
    expect(state).toBe(JSON.stringify(JSON.parse(state)));
    expect(JSON.parse(state).world.cards[0]).toMatchObject({ name: name.toWellFormed(), shippingAddress: null });
  });

  it('writes the fixture’s format today: the same fields, table by table', async () => {
    const sb = createTestSandbox();
    await buildFixtureWorld(sb);
    const now = exported(sb);
    const kept = JSON.parse(VERSION_3);
    expect(now.version).toBe(kept.version);
    expect(Object.keys(now.state).sort()).toEqual(Object.keys(kept.state).sort());
    for (const table of FORMAT_TABLES) {
      const fields = (records: Record<string, unknown>[]) => [...new Set(records.flatMap((r) => Object.keys(r)))];
      expect(fields(now.state.world[table.name]), table.name).toEqual(fields(kept.state.world[table.name]));
    }
  });

  it('restores a version 1 file to the world version 2 holds, the accounts of both at the default balance', async () => {
    const fromOld = createTestSandbox();
    await restoreInProcess(fromOld, VERSION_1);
    const from2 = createTestSandbox();
    await restoreInProcess(from2, VERSION_2);
    expect(comparable(exported(fromOld).state)).toEqual(comparable(exported(from2).state));
    expect(await served(fromOld)).toEqual(await served(from2));
    // Version 2 held no balance: its accounts start at the default; the rest is the world version 3 holds.
    const balances = (state: any) => state.world.accounts.map((a: { balance: string }) => a.balance);
    expect(balances(exported(from2).state)).toEqual(['1000000', '1000000', '1000000']);
    expect(balances(exported(fromOld).state)).toEqual(['1000000', '1000000', '1000000']);
  });

  it('restores snapshots the database kept in an earlier version of the file', async () => {
    const sb = createTestSandbox();
    const id = '6a1c9d0e-5f2b-4c3d-8e7f-0a1b2c3d4e5f';
    // As the release before kept it: its file, as it wrote it.
    sb.deps.store.sqlite
      .prepare('INSERT INTO snapshots (id, programme_id, name, clock_now, clock_frozen, counts, file, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, 'default', 'kept by 0.1', 0, 1, '{}', VERSION_1, Buffer.byteLength(VERSION_1), 0);
    const restored = await control(sb, 'POST', `/snapshots/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.counts.customers).toBe(4);
    const reference = createTestSandbox();
    await restoreFile(reference, VERSION_2);
    expect(await served(sb)).toEqual(await served(reference));
  });

  it('a column added to the database later changes neither the files written nor those read, kept or not', async () => {
    const db = join(dir, 'later.db');
    const before = createTestSandbox({ db }, { store: openStore(db) });
    await restoreInProcess(before, VERSION_3);
    const kept = await before.deps.snapshots.save(before.deps.programmes.default(), 'before the column');
    before.deps.store.close();

    // A later release's migration, thrown away with the database: columns with their defaults.
    const migrated = openStore(db);
    migrated.sqlite.exec(`ALTER TABLE cards ADD COLUMN nickname TEXT NOT NULL DEFAULT 'none'; ALTER TABLE events ADD COLUMN priority INTEGER;`);
    const after = createTestSandbox({ db }, { store: migrated });
    try {
      const programme = after.deps.programmes.default();
      for (const restore of [() => after.deps.snapshots.restore(programme, kept.id), () => restoreInProcess(after, VERSION_3)]) {
        await control(after, 'POST', '/reset');
        await restore();
        expect(comparable(exported(after).state)).toEqual(comparable(JSON.parse(VERSION_3).state));
      }
      expect(after.deps.store.sqlite.prepare('SELECT DISTINCT nickname FROM cards').pluck().all()).toEqual(['none']);
      const saved = (await control(after, 'POST', '/snapshots')).body;
      expect((await control(after, 'POST', `/snapshots/${saved.id}/restore`)).status).toBe(200);
      await served(after);
    } finally {
      after.deps.store.close();
    }
  });

  it.each([
    ['a later version', (file: string) => file.replace(`"version":${SNAPSHOT_VERSION}`, '"version":4'), /a version 4 snapshot .* reads versions 1, 2, 3/],
    ['version 0', (file: string) => file.replace(`"version":${SNAPSHOT_VERSION}`, '"version":0'), /a version 0 snapshot/],
    ['version 1.5', (file: string) => file.replace(`"version":${SNAPSHOT_VERSION}`, '"version":1.5'), /a version 1.5 snapshot/],
  ])('%s, from a file or kept in the database: 422 naming the versions, and nothing changes', async (_, change, detail) => {
    const sb = createTestSandbox();
    await restoreFile(sb, VERSION_3);
    const before = await served(sb);
    const file = change(VERSION_3);
    const refused = await restoreFile(sb, file);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'snapshot_version_unsupported', detail: expect.stringMatching(detail) });
    const id = '0f5e4d3c-2b1a-4987-a654-3210fedcba98';
    sb.deps.store.sqlite
      .prepare('INSERT INTO snapshots (id, programme_id, name, clock_now, clock_frozen, counts, file, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, 'default', 'from later', 0, 1, '{}', file, Buffer.byteLength(file), 0);
    expect((await control(sb, 'POST', `/snapshots/${id}/restore`)).status).toBe(422);
    expect(await served(sb)).toEqual(before);
  });

  it('names every column of the world in the format, or says how it is made', () => {
    for (const table of FORMAT_TABLES) {
      const named = [...table.fields.map((f) => f.column.name), ...table.derived.map((d) => d.column.name), 'programme_id'].sort();
      expect(named, table.name).toEqual(
        getTableConfig(WORLD_TABLES[table.name])
          .columns.map((c) => c.name)
          .sort(),
      );
    }
    expect(FORMAT_TABLES.map((t) => t.name).sort()).toEqual(Object.keys(WORLD_TABLES).sort());
  });
});
