/**
 * Snapshots (docs/snapshots.md): a programme's whole state at one instant — its world (resources,
 * events, deliveries and attempts, jobs, webhook subscriptions, idempotency keys), its journal, its
 * faults and pause, its fees, its clock and where its random streams stand — kept in the database as its
 * file, put back in place, carried as a file to another programme or sandbox, or forked into a new
 * programme. Credentials, signing keys, the token secret and the webhook key are the programme's
 * own and stay as they are. Saving and restoring run exclusively of the programme's due work
 * (its scheduler, kernel/scheduler.ts); other programmes carry on.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { iso } from '../domain/instant.js';
import type { Config } from '../config.js';
import { fail } from '../domain/errors.js';
import type { Ids } from '../kernel/ids.js';
import type { CreatedProgramme, Programme, Programmes } from '../programmes/index.js';
import { readSnapshot, snapshotFile, TABLES, type ProgrammeState, type RestoredState, type SnapshotHeader, type TableName } from './file.js';
import { once, sqlLiteral } from '../store/prepared.js';
import { programmes as programmeRows, snapshots } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { SnapshotCounts, SnapshotSummary } from '../wire/snapshots.js';

export interface SnapshotsDeps {
  store: Store;
  config: Config;
  programmes: Programmes;
  /** Snapshots' ids: a stream of the sandbox's own, so that taking one shifts no other id. */
  ids: Ids;
  wall?: () => number;
}

const countsOf = (state: Pick<ProgrammeState, 'tables' | 'journal'>): SnapshotCounts =>
  ({ ...Object.fromEntries(TABLES.map(({ name }) => [name, state.tables[name].rows.length])), requests: state.journal.length }) as Record<
    TableName | 'requests',
    number
  >;

const summaryOf = ({ id, name, createdAt }: SnapshotHeader, state: Pick<ProgrammeState, 'tables' | 'journal' | 'clock'>, bytes: number): SnapshotSummary => ({
  id,
  name,
  createdAt,
  clock: { now: iso(state.clock.now), frozen: state.clock.frozen },
  counts: countsOf(state),
  bytes,
});

export function createSnapshots({ store, config, programmes, ids, wall = Date.now }: SnapshotsDeps) {
  const { db, sqlite } = store;
  const quote = (name: string) => `"${name}"`;
  // One statement of each kind per table, built when first used. A request in flight when the
  // snapshot is taken never finished: its idempotency key is not kept.
  const statements = TABLES.map(({ name, sqlName, columns }) => {
    const from = quote(sqlName);
    const names = columns.map((c) => quote(c.name)).join(', ');
    return {
      name,
      select: once(() =>
        sqlite
          .prepare(
            `SELECT ${names} FROM ${from} WHERE programme_id = ?${name === 'idempotencyKeys' ? ` AND state = ${sqlLiteral('done')}` : ''} ORDER BY rowid`,
          )
          .raw(),
      ),
      current: once(() => sqlite.prepare(`SELECT rowid, ${names} FROM ${from} WHERE programme_id = ? ORDER BY rowid`).raw()),
      removeFrom: once(() => sqlite.prepare(`DELETE FROM ${from} WHERE programme_id = ? AND rowid >= ?`)),
      insert: once(() => sqlite.prepare(`INSERT INTO ${from} (programme_id, ${names}) VALUES (?, ${columns.map(() => '?').join(', ')})`)),
    };
  });

  /**
   * Replaces the programme's rows of one table with `rows`, in their order. Those already there as
   * the snapshot holds them, from the first on, stay: a world changed at its end (new resources,
   * events and attempts, as a test makes them) costs only what changed. From the first that
   * differs on, rows are deleted and written again in order, so that they keep the order they were
   * made in (which lists follow where their times tie).
   */
  const replaceRows = (statement: (typeof statements)[number], programme: string, rows: unknown[][]) => {
    const there = statement.current().all(programme) as unknown[][];
    let same = 0;
    const matches = (row: unknown[], kept: unknown[]) => row.every((cell, i) => cell === kept[i + 1]);
    while (same < there.length && same < rows.length && matches(rows[same]!, there[same]!)) same++;
    if (same < there.length) statement.removeFrom().run(programme, there[same]![0]);
    for (let i = same; i < rows.length; i++) statement.insert().run(programme, rows[i]);
  };

  /** What the programme is now, read in one transaction with what it keeps in memory. */
  const capture = ({ id, core, services, journal, requestStreams, seed }: Programme): ProgrammeState =>
    store.transaction(() => {
      const row = db
        .select({ faults: programmeRows.webhookFaults, paused: programmeRows.webhooksPaused, fees: programmeRows.fees })
        .from(programmeRows)
        .where(eq(programmeRows.id, id))
        .get()!;
      return {
        seed,
        clock: { now: core.clock.now(), frozen: core.clock.frozen },
        random: { main: core.random.state(), apiRequests: requestStreams.api.state(), controlRequests: requestStreams.control.state() },
        webhookFaults: row.faults ?? undefined,
        webhooksPaused: row.paused,
        ...(row.fees && { fees: row.fees }),
        apiFaults: { shown: services.apiFaults.view(), draws: services.apiFaults.draws() },
        journal: journal.list(),
        tables: Object.fromEntries(
          TABLES.map(({ name, columns }, i) => [name, { columns: columns.map((c) => c.name), rows: statements[i]!.select().all(id) as unknown[][] }]),
        ) as ProgrammeState['tables'],
      };
    });

  /**
   * Puts the programme back as `state` holds it: the rows of its world replaced in one
   * transaction, then what it keeps in memory. What was scheduled since is gone; attempts in flight
   * are cut short and recorded nowhere. Rows that do not fit together (a file's) change nothing.
   */
  const restore = (programme: Programme, state: RestoredState): Promise<void> => {
    const { id, core, scheduler, services, journal, requestStreams } = programme;
    return scheduler.exclusively(async () => {
      try {
        store.transaction(() => {
          // Parents first: what deleting a parent takes with it is gone before its children are
          // compared; a child may refer to a parent deleted and written again meanwhile.
          sqlite.pragma('defer_foreign_keys = ON');
          for (const statement of statements) replaceRows(statement, id, state.tables[statement.name].rows);
          const { now, frozen } = state.clock;
          db.update(programmeRows)
            .set({
              webhookFaults: state.webhookFaults ?? null,
              webhooksPaused: state.webhooksPaused,
              fees: state.fees ?? null,
              clockFrozenAt: frozen ? now : null,
              clockOffset: now - core.clock.wall(),
            })
            .where(eq(programmeRows.id, id))
            .run();
        });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'))
          fail('invalid_snapshot', `the snapshot's rows do not fit together (${(error as Error).message}); nothing was restored`);
        throw error;
      }
      // Before any attempt in flight can record its outcome in the world it no longer belongs to.
      const abandoned = services.webhooks.abandon();
      core.clock.set(state.clock);
      core.random.restore(state.random.main);
      requestStreams.api.restore(state.random.apiRequests);
      requestStreams.control.restore(state.random.controlRequests);
      services.apiFaults.restore(state.apiFaults.shown, state.apiFaults.draws);
      services.lab.reload();
      services.fees.reload();
      journal.restore(state.journal);
      await abandoned;
    });
  };

  const mine = (programme: Programme, id: string) => and(eq(snapshots.programmeId, programme.id), eq(snapshots.id, id));
  const missing = (programme: Programme, id: string): never => fail('snapshot_not_found', `programme ${programme.id} has no snapshot with id ${id}`);

  /** A new snapshot's id, never one kept already (a seeded sandbox draws the same ones after a restart). */
  const freeId = (): string => {
    for (;;) {
      const id = ids.uuid();
      if (!db.select({ id: snapshots.id }).from(snapshots).where(eq(snapshots.id, id)).get()) return id;
    }
  };

  const header = (name: string | undefined): SnapshotHeader => {
    const id = freeId();
    return { id, name: name ?? id, createdAt: iso(wall()) };
  };

  const service = {
    /** Takes a snapshot of the programme and keeps it; 429 past --max-snapshots. */
    save: (programme: Programme, name?: string): Promise<SnapshotSummary> =>
      programme.scheduler.exclusively(() =>
        store.transaction(() => {
          const total = db.select({ n: count() }).from(snapshots).get()!.n;
          if (total >= config.maxSnapshots)
            fail(
              'snapshot_limit_reached',
              `this sandbox keeps ${total} snapshots, its limit (--max-snapshots ${config.maxSnapshots}); delete one with DELETE /_sandbox/snapshots/{id}`,
            );
          const state = capture(programme);
          const head = header(name);
          const file = snapshotFile(head, state);
          const summary = summaryOf(head, state, Buffer.byteLength(file));
          db.insert(snapshots)
            .values({
              id: head.id,
              programmeId: programme.id,
              name: head.name,
              clockNow: state.clock.now,
              clockFrozen: state.clock.frozen,
              counts: summary.counts,
              file,
              bytes: summary.bytes,
              createdAt: Date.parse(head.createdAt),
            })
            .run();
          return summary;
        }),
      ),

    /** The programme's snapshots, oldest first. */
    list: (programme: Programme): SnapshotSummary[] =>
      db
        .select({
          id: snapshots.id,
          name: snapshots.name,
          createdAt: snapshots.createdAt,
          clockNow: snapshots.clockNow,
          clockFrozen: snapshots.clockFrozen,
          counts: snapshots.counts,
          bytes: snapshots.bytes,
        })
        .from(snapshots)
        .where(eq(snapshots.programmeId, programme.id))
        .orderBy(asc(snapshots.createdAt), sql`rowid`)
        .all()
        .map((s) => ({
          id: s.id,
          name: s.name,
          createdAt: iso(s.createdAt),
          clock: { now: iso(s.clockNow), frozen: s.clockFrozen },
          counts: s.counts as SnapshotCounts,
          bytes: s.bytes,
        })),

    remove(programme: Programme, id: string): void {
      if (db.delete(snapshots).where(mine(programme, id)).run().changes === 0) missing(programme, id);
    },

    /** The snapshot's file, and its name. */
    file(programme: Programme, id: string): { name: string; file: string } {
      return db.select({ name: snapshots.name, file: snapshots.file }).from(snapshots).where(mine(programme, id)).get() ?? missing(programme, id);
    },

    /** Puts the programme back as its snapshot `id` holds it. */
    async restore(programme: Programme, id: string): Promise<SnapshotSummary> {
      const { file } = service.file(programme, id);
      const read = readSnapshot(file, false);
      await restore(programme, read.state);
      return summaryOf(read, read.state, Buffer.byteLength(file));
    },

    /** Puts the programme back as a snapshot file holds it: checked whole first, so that a bad file changes nothing. */
    async restoreFile(programme: Programme, bytes: Uint8Array): Promise<SnapshotSummary> {
      const read = readSnapshot(Buffer.from(bytes).toString('utf8'), true);
      await restore(programme, read.state);
      return summaryOf(read, read.state, bytes.length);
    },

    /** The programme as a snapshot file, now, without keeping it (--export-on-exit). */
    export: (programme: Programme): string => snapshotFile(header(undefined), capture(programme)),

    /** A new programme, with credentials of its own, starting from snapshot `id`'s world and clock. */
    async fork(id: string, options: { name?: string | undefined; holdExpiry?: string | undefined } = {}): Promise<CreatedProgramme> {
      const kept =
        db.select({ file: snapshots.file }).from(snapshots).where(eq(snapshots.id, id)).get() ?? fail('snapshot_not_found', `no snapshot with id ${id}`);
      const { state } = readSnapshot(kept.file, false);
      const { apiKey, apiSecret, id: made } = programmes.create({ ...options, randomSeed: state.seed });
      await restore(programmes.get(made), state);
      return { ...programmes.describe(made), apiKey, apiSecret };
    },
  };
  return service;
}

export type Snapshots = ReturnType<typeof createSnapshots>;
