/**
 * A large restore, into an empty world or over one, in memory and in a database file (`--db`)
 * (docs/snapshots.md: While things are under way): the new world is written in steps — over a
 * world, under a staging programme beside it — while another programme is answered; the programme's own requests wait and
 * find the new world whole; a failure part way (a clash found late, the disk full) leaves the
 * programme exactly as it was; a process stopped at any step opens as the old world or the new.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stagingIdOf } from '../domain/programme.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { clashingFile, control, largeFile, otherProgramme, stored, turn } from '../testing/large-snapshot.js';
import { programmeState } from '../testing/snapshots.js';
import { openStore } from '../store/store.js';
import { worldRows } from './rows.js';
import { stagedWrites } from './staged.js';

const ID = 'default';
const STAGING = stagingIdOf(ID);

const folders: string[] = [];
const sandboxes: TestSandbox[] = [];
afterEach(() => {
  for (const sb of sandboxes.splice(0)) sb.deps.store.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const folder = () => {
  const made = mkdtempSync(join(tmpdir(), 'staged-restore-'));
  folders.push(made);
  return made;
};

type Over = 'empty' | 'used';

/** A sandbox in memory or on a database file, its default programme with a clock moved, API faults and, `used`, a world of its own. */
async function usedSandbox(db: 'memory' | 'file', over: Over = 'used') {
  const sb = createTestSandbox({}, db === 'file' ? { store: openStore(join(folder(), 'sandbox.db')) } : {});
  sandboxes.push(sb);
  if (over === 'used')
    await control(sb, 'POST', '/seed', { customers: [{ externalId: 'mine-1', accounts: [{ currencies: ['EUR'], cards: [{ type: 'virtual' }] }] }] });
  await control(sb, 'PUT', '/api/faults', { rules: [{ match: { method: 'GET' }, latency: '10ms' }] });
  await control(sb, 'POST', '/clock/advance', { by: '3d' });
  return sb;
}

/** The `restores` row of the default programme's restore under way, if any. */
const phaseOf = (sb: TestSandbox) => sb.deps.store.sqlite.prepare('SELECT phase FROM restores WHERE programme_id = ?').pluck().get(ID) as string | undefined;

/** Staging programmes the database holds (none once a restore is over). */
const stagingRows = (sb: TestSandbox) => sb.deps.store.sqlite.prepare("SELECT count(*) FROM programmes WHERE id LIKE 'restoring:%'").pluck().get() as number;

/** Where the new world is written: beside a world, under the staging programme; into an empty one, straight in. */
const writtenUnder = (over: Over) => (over === 'used' ? STAGING : ID);

describe('a large restore', () => {
  for (const [over, db] of [
    ['empty', 'memory'],
    ['empty', 'file'],
    ['used', 'memory'],
    ['used', 'file'],
  ] as const) {
    const into = writtenUnder(over);
    it(`${db}, over a world ${over}: is written in steps; another programme is answered meanwhile, its own requests wait for the new world`, async () => {
      const sb = await usedSandbox(db, over);
      const file = largeFile();
      const total = JSON.parse(file).state.world.customers.length;
      const other = await otherProgramme(sb);

      const answered: string[] = [];
      const restoring = control(sb, 'POST', '/snapshots/restore', file).then((res) => (answered.push('restore'), res));
      // Until some of the new world is written, and not all of it.
      for (let held = stored(sb, into); held === 0 || held === total; held = stored(sb, into)) {
        expect(answered, 'the restore was written in one go').toEqual([]);
        await turn();
      }
      expect(phaseOf(sb)).toBe('writing');
      if (over === 'used') expect(stored(sb, ID), 'the old world is kept until the new one is whole').toBe(1);
      // Never listed, never counted.
      expect((await control(sb, 'GET', '/programmes')).body.map((p: { id: string }) => p.id)).not.toContain(STAGING);
      const own = control(sb, 'GET', '/world/counts').then((res) => (answered.push('own counts'), res));
      const elsewhere = await other.customers();
      answered.push('elsewhere');
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.body.map((c: { externalId: string }) => c.externalId)).toEqual(['elsewhere']);
      expect((await restoring).status).toBe(200);
      expect((await own).body.customers).toBe(total);
      expect(answered[0]).toBe('elsewhere');
      expect([stored(sb, ID), stored(sb, STAGING), stagingRows(sb), phaseOf(sb)]).toEqual([total, 0, 0, undefined]);
    });

    for (const [failure, fileOf, prepare] of [
      ['a clash found late', clashingFile, () => undefined],
      // The disk full: the database may grow by a little, not by the new world.
      ...(over === 'empty'
        ? []
        : [
            [
              'the disk full',
              () => largeFile(),
              (sb: TestSandbox) =>
                sb.deps.store.sqlite.pragma(`max_page_count = ${Number(sb.deps.store.sqlite.pragma('page_count', { simple: true })) + 1000}`),
            ] as const,
          ]),
    ] as const) {
      it(`${db}, over a world ${over}: that fails part way (${failure}) leaves the programme exactly as it was`, async () => {
        const sb = await usedSandbox(db, over);
        const before = await programmeState(sb);
        const file = fileOf();
        prepare(sb);
        let staged = 0;
        let settled = false;
        const refused = control(sb, 'POST', '/snapshots/restore', file);
        void refused.then(() => (settled = true));
        while (!settled) {
          staged = Math.max(staged, stored(sb, into));
          await turn();
        }
        const res = await refused;
        expect(res.status, JSON.stringify(res.body)).not.toBe(200);
        if (failure === 'a clash found late') expect(res.body.detail).toMatch(/rows do not fit together .* nothing was restored/);
        expect(staged, 'it failed part way').toBeGreaterThan(0);
        expect([stored(sb, STAGING), stagingRows(sb), phaseOf(sb)]).toEqual([0, 0, undefined]);
        if (over === 'empty') expect(stored(sb, ID), 'none of the rows it wrote').toBe(0);
        expect(await programmeState(sb)).toEqual(before);
      });
    }
  }

  it('file: a process stopped at any step opens as the old world or the new one, never a mix', async () => {
    const sb = await usedSandbox('file');
    const path = sb.deps.store.path;
    const rows = worldRows(sb.deps.store);
    const old = sb.deps.store.transaction(() => rows.read(ID));
    // What a kill leaves at a step: the database file and its write-ahead log, as they are between two transactions.
    const images = new Map<string, string>();
    const image = (phase: string) => {
      const at = join(folder(), 'image.db');
      copyFileSync(path, at);
      if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${at}-wal`);
      images.set(phase, at);
    };
    let settled = false;
    const restoring = control(sb, 'POST', '/snapshots/restore', largeFile());
    void restoring.then(() => (settled = true));
    while (!settled) {
      const phase = phaseOf(sb);
      const step = phase === 'writing' && stored(sb, STAGING) === 0 ? undefined : phase === 'committed' && stored(sb, ID) > 1 ? 'copying' : phase;
      if (step !== undefined && !images.has(step)) image(step);
      await turn();
    }
    expect((await restoring).status).toBe(200);
    const restored = sb.deps.store.transaction(() => rows.read(ID));
    // Written beside the old world, made the programme's, the old rows deleted, the new ones copied in part, the staging ones deleted.
    expect([...images.keys()].sort()).toEqual(['committed', 'copied', 'copying', 'writing']);
    for (const [step, at] of images) {
      const store = openStore(at);
      try {
        stagedWrites(store, worldRows(store)).recover();
        const world = store.transaction(() => worldRows(store).read(ID));
        expect(world, `stopped at ${step}`).toEqual(step === 'writing' ? old : restored);
        const left = store.sqlite
          .prepare("SELECT (SELECT count(*) FROM restores) + (SELECT count(*) FROM programmes WHERE id LIKE 'restoring:%')")
          .pluck()
          .get();
        expect(left, `stopped at ${step}`).toBe(0);
      } finally {
        store.close();
      }
    }
  });
});
