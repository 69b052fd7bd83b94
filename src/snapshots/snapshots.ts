/**
 * Snapshots (docs/snapshots.md): a programme's whole state at one instant — its world (resources,
 * events, deliveries and attempts, jobs, webhook subscriptions, idempotency keys), its journal, its
 * faults and pause, its fees and rates, its clock and where its random streams stand — kept in the database as its
 * file, put back in place, carried as a file to another programme or sandbox, or forked into a new
 * programme. Credentials, signing keys, the token secret and the webhook key are the programme's
 * own and stay as they are. A save takes the programme as it stands, in one transaction; a restore
 * cuts short what is under way (attempts in flight, an advance waiting on them) and runs exclusively
 * of the programme's due work (its scheduler, kernel/scheduler.ts), in memory as in the database all or nothing (put-back.ts); other
 * programmes carry on.
 */
import { and, asc, count, eq, or, sql, sum } from 'drizzle-orm';
import { echo } from '../domain/echo.js';
import { iso } from '../domain/instant.js';
import type { Config } from '../config/index.js';
import { fail } from '../domain/errors.js';
import type { Ids } from '../kernel/ids.js';
import { bytesText } from '../kernel/files.js';
import { inTurns } from '../kernel/in-turn.js';
import type { Log } from '../kernel/log.js';
import type { CreatedProgramme, Programme, Programmes } from '../programmes/index.js';
import {
  readSnapshot,
  snapshotFile,
  type CapturedState,
  type ProgrammeState,
  type SnapshotHeader,
  type TableName,
  type TableRows,
  type WorldText,
} from './file.js';
import { keptReads } from './kept-reads.js';
import { putBack } from './put-back.js';
import { worldRows } from './rows.js';
import { stagedWrites } from './staged.js';
import { FORMAT_TABLES } from './tables.js';
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
  log?: Log;
}

/** How many rows of each table a world holds. */
const rowCounts = (rows: TableRows): Record<TableName, number> =>
  Object.fromEntries(FORMAT_TABLES.map(({ name }) => [name, rows[name].length])) as Record<TableName, number>;

const summaryOf = (
  { id, name, createdAt }: SnapshotHeader,
  state: Pick<ProgrammeState, 'journal' | 'clock'>,
  rows: Record<TableName, number>,
  bytes: number,
): SnapshotSummary => ({
  id,
  name,
  createdAt,
  clock: { now: iso(state.clock.now), frozen: state.clock.frozen },
  counts: { ...rows, requests: state.journal.length },
  bytes,
});

/**
 * A kept file read as bytes: better-sqlite3 makes a JavaScript string of a large text several times
 * slower than Node decodes its bytes, and a restore parses bytes as they are.
 */
const fileBytes = sql<Buffer<ArrayBuffer>>`CAST(${snapshots.file} AS BLOB)`;

/** How many bytes of snapshot files are kept read (kept-reads.ts): in memory, about 1.2 times as many. */
const KEPT_READ_BYTES = 32 << 20;

/** What tells a kept snapshot's file from another's of the same id (kept-reads.ts). */
const stampColumns = { createdAt: snapshots.createdAt, bytes: snapshots.bytes };

export function createSnapshots({ store, config, programmes, ids, wall = Date.now, log }: SnapshotsDeps) {
  const { db } = store;
  const rows = worldRows(store);

  /** What the programme is now, read in one transaction with what it keeps in memory: its world as the file writes it. */
  const capture = ({ id, core, services, journal, requestStreams, seed }: Programme): { state: CapturedState; world: WorldText } =>
    store.transaction(() => {
      const row = db
        .select({ faults: programmeRows.webhookFaults, paused: programmeRows.webhooksPaused, fees: programmeRows.fees, rates: programmeRows.rates })
        .from(programmeRows)
        .where(eq(programmeRows.id, id))
        .get()!;
      const state: CapturedState = {
        seed,
        clock: { now: core.clock.now(), frozen: core.clock.frozen },
        random: { main: core.random.state(), apiRequests: requestStreams.api.state(), controlRequests: requestStreams.control.state() },
        webhookFaults: row.faults ?? undefined,
        webhooksPaused: row.paused,
        ...(row.fees && { fees: row.fees }),
        ...(row.rates && { rates: row.rates }),
        apiFaults: { shown: services.apiFaults.view(), draws: services.apiFaults.draws() },
        journal: journal.list(),
      };
      return { state, world: rows.text(id) };
    });

  const staged = stagedWrites(store, rows);
  // What a stop left of a large restore, before any programme is used.
  const recovered = staged.recover();
  for (const id of recovered.undone) log?.warn('a restore cut short by a stop was undone: the programme is as it was before it', { programme: id });
  for (const id of recovered.finished) log?.warn('a restore cut short by a stop was finished: the programme is as the snapshot holds it', { programme: id });
  const restore = putBack(store, rows, staged);

  // Restores and forks, one at a time in the order they came, whatever their programme: a file parsed,
  // checked and as rows takes several times its size in memory (docs/snapshots.md: One at a time).
  const inTurn = inTurns();
  const reads = keptReads(KEPT_READ_BYTES);
  const unknown = (id: string): never => fail('snapshot_not_found', `no snapshot with id ${id}`);
  /** Reads snapshot `id`'s file, which the database keeps. */
  const readFile = (id: string) => async () =>
    readSnapshot((db.select({ file: fileBytes }).from(snapshots).where(eq(snapshots.id, id)).get() ?? unknown(id)).file, false);

  const mine = (programme: Programme, id: string) => and(eq(snapshots.programmeId, programme.id), eq(snapshots.id, id));
  const named = (programme: Programme, name: string) => and(eq(snapshots.programmeId, programme.id), or(eq(snapshots.name, name), eq(snapshots.id, name)));
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

  /** 429 when the sandbox keeps --max-snapshots already, or `bytes` more would pass --max-snapshot-bytes. */
  const checkRoom = (bytes?: number) => {
    const { n, total } = db
      .select({ n: count(), total: sum(snapshots.bytes).mapWith(Number) })
      .from(snapshots)
      .get()!;
    if (n >= config.maxSnapshots)
      fail(
        'snapshot_limit_reached',
        `this sandbox keeps ${n} snapshots, its limit (--max-snapshots ${config.maxSnapshots}); delete one with DELETE /_sandbox/snapshots/{id}`,
      );
    if (bytes !== undefined && (total ?? 0) + bytes > config.maxSnapshotBytes)
      fail(
        'snapshot_limit_reached',
        `this sandbox keeps ${bytesText(total ?? 0)} of snapshots, and this one (${bytesText(bytes)}) would pass its limit (--max-snapshot-bytes ${bytesText(config.maxSnapshotBytes)}); delete one with DELETE /_sandbox/snapshots/{id}`,
      );
  };

  const service = {
    /**
     * Takes a snapshot of the programme as it stands and keeps it; 429 past --max-snapshots or
     * --max-snapshot-bytes. A name is the programme's one snapshot of that name (docs/snapshots.md:
     * Snapshots), so that commands can take it for the id: 409 for another.
     */
    save: (programme: Programme, name?: string): Promise<SnapshotSummary> =>
      Promise.resolve().then(() => {
        const { summary, createdAt } = store.transaction(() => {
          checkRoom();
          const taken = name === undefined ? undefined : db.select({ id: snapshots.id }).from(snapshots).where(named(programme, name)).get();
          if (taken)
            fail(
              'snapshot_name_taken',
              `programme ${programme.id} has a snapshot named ${echo(name!)} already (${taken.id}): delete it first, or choose another name`,
            );
          const { state, world } = capture(programme);
          const head = header(name);
          const file = snapshotFile(head, state, world);
          const summary = summaryOf(head, state, world.counts, file.length);
          const createdAt = Date.parse(head.createdAt);
          checkRoom(summary.bytes);
          db.insert(snapshots)
            .values({
              id: head.id,
              programmeId: programme.id,
              name: head.name,
              clockNow: state.clock.now,
              clockFrozen: state.clock.frozen,
              counts: summary.counts,
              // Bound as bytes (the text made from them once, by SQLite): kept as the text it is.
              file: sql`CAST(${file} AS TEXT)`,
              bytes: summary.bytes,
              createdAt,
            })
            .run();
          return { summary, createdAt };
        });
        reads.readAhead(summary.id, { createdAt, bytes: summary.bytes }, readFile(summary.id));
        return summary;
      }),

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
      reads.forget(id);
    },

    /** The snapshot's file, as bytes, and its name. */
    file(programme: Programme, id: string): { name: string; file: Buffer<ArrayBuffer> } {
      return db.select({ name: snapshots.name, file: fileBytes }).from(snapshots).where(mine(programme, id)).get() ?? missing(programme, id);
    },

    /** Puts the programme back as its snapshot `id` holds it: a file of an earlier version is brought to this one first. */
    restore: (programme: Programme, id: string): Promise<SnapshotSummary> =>
      inTurn(async () => {
        const stamp = db.select(stampColumns).from(snapshots).where(mine(programme, id)).get() ?? missing(programme, id);
        const read = await reads.get(id, stamp, readFile(id));
        await restore(programme, read.state);
        return summaryOf(read, read.state, rowCounts(read.state.rows), stamp.bytes);
      }),

    /** Puts the programme back as a snapshot file holds it: checked whole first, so that a bad file changes nothing. */
    restoreFile: (programme: Programme, bytes: Uint8Array): Promise<SnapshotSummary> =>
      inTurn(async () => {
        const read = await readSnapshot(bytes, true);
        await restore(programme, read.state);
        return summaryOf(read, read.state, rowCounts(read.state.rows), bytes.length);
      }),

    /** The programme as a snapshot file, now, without keeping it (--export-on-exit). */
    export: (programme: Programme): string => {
      const { state, world } = capture(programme);
      return snapshotFile(header(undefined), state, world).toString('utf8');
    },

    /** A new programme, with credentials of its own, starting from snapshot `id`'s world and clock. */
    fork: (
      id: string,
      options: { name?: string | undefined; holdExpiry?: string | undefined; startingBalance?: string | undefined } = {},
    ): Promise<CreatedProgramme> =>
      inTurn(async () => {
        const stamp = db.select(stampColumns).from(snapshots).where(eq(snapshots.id, id)).get() ?? unknown(id);
        const { state } = await reads.get(id, stamp, readFile(id));
        const { apiKey, apiSecret, id: made } = programmes.create({ ...options, randomSeed: state.seed });
        await restore(programmes.get(made), state);
        return { ...programmes.describe(made), apiKey, apiSecret };
      }),
  };
  return service;
}

export type Snapshots = ReturnType<typeof createSnapshots>;
