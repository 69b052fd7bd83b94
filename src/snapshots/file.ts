/**
 * The snapshot file (docs/snapshots.md): one JSON document — its header (the format and its
 * version, the snapshot's id, name and creation time, the sandbox that wrote it, the SHA-256 of its
 * state), then the programme's state: its clock, where its random streams stand, its faults and
 * pause, its journal, and the rows of its world table by table, as SQLite holds them. The database
 * keeps a snapshot as this file. A file from elsewhere is checked whole — digest, shape, every
 * cell — before anything changes; one from another version of the format is refused, naming it.
 */
import { createHash } from 'node:crypto';
import { getTableColumns } from 'drizzle-orm';
import { getTableConfig, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { z } from 'zod';
import type { ClockState } from '../kernel/clock.js';
import { ApiFaultsShown } from '../domain/api-faults.js';
import type { ApiFaultsView } from '../wire/api-faults.js';
import { fail, SandboxError, type FieldError } from '../domain/errors.js';
import type { FeeSettings } from '../domain/fees.js';
import { Uuid } from '../domain/formats.js';
import { Seed, type Faults } from '../domain/webhook-faults.js';
import type { RandomState } from '../kernel/ids.js';
import { FeeSettingsInput } from '../wire/fees.js';
import { JournalEntry } from '../wire/journal.js';
import type { ApiFaultDraws } from '../services/api-faults.js';
import { WORLD_TABLES, type WorldTable, type WorldTableName } from '../store/world.js';
import { version } from '../kernel/version.js';

export const SNAPSHOT_FORMAT = 'card-sandbox snapshot';
export const SNAPSHOT_VERSION = 2;

export type TableName = WorldTableName;

/** A table's rows as SQLite holds them, without the programme's id, its columns named once. */
export interface TableRows {
  columns: string[];
  rows: unknown[][];
}

/** Every table of a programme's world, its SQL name and its columns but the programme's id, parents first (the order rows go back in). */
export const TABLES = (Object.entries(WORLD_TABLES) as [TableName, WorldTable][]).reverse().map(([name, table]) => ({
  name,
  sqlName: getTableConfig(table).name,
  columns: (Object.values(getTableColumns(table)) as SQLiteColumn[]).filter((c) => c.name !== 'programme_id'),
}));

/** What a programme is at one instant, as a snapshot holds it. */
export interface ProgrammeState {
  /** The seed it was made with, which a fork is made with too. */
  seed?: number | undefined;
  clock: ClockState;
  /** Where its random streams stand: the one its services draw from, and its requests' ids'; absent for an unseeded one. */
  random: { main?: RandomState | undefined; apiRequests?: RandomState | undefined; controlRequests?: RandomState | undefined };
  webhookFaults?: Faults | undefined;
  webhooksPaused: boolean;
  /** The fees its new transactions carry (docs/money-path.md: Fees); absent for none. */
  fees?: FeeSettings | undefined;
  /** The API fault lab's rules as GET /_sandbox/api/faults shows them, and where its draws stand. */
  apiFaults: { shown: ApiFaultsView; draws: ApiFaultDraws };
  /** Newest first. */
  journal: JournalEntry[];
  tables: Record<TableName, TableRows>;
}

export interface SnapshotHeader {
  id: string;
  name: string;
  createdAt: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The file of a snapshot: its header, then its state. */
export function snapshotFile(header: SnapshotHeader, state: ProgrammeState): string {
  const stateText = JSON.stringify(state);
  const head = JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, ...header, sandbox: version(), sha256: sha256(stateText) });
  return `${head.slice(0, -1)},"state":${stateText}}`;
}

const word = z
  .int()
  .min(0)
  .max(2 ** 32 - 1);
const Stream = z.strictObject({ key: z.string(), words: z.tuple([word, word, word, word]) });

const Table = z.strictObject({ columns: z.array(z.string()), rows: z.custom<unknown[][]>((rows) => Array.isArray(rows), 'must be a list of rows') });

const State = z.strictObject({
  seed: Seed.optional(),
  clock: z.strictObject({ now: z.int().min(0), frozen: z.boolean() }),
  random: z.strictObject({ main: Stream.optional(), apiRequests: Stream.optional(), controlRequests: Stream.optional() }),
  webhookFaults: z.custom<Faults>((faults) => typeof faults === 'object' && faults !== null && !Array.isArray(faults), 'must be an object').optional(),
  webhooksPaused: z.boolean(),
  fees: FeeSettingsInput.optional(),
  apiFaults: z.strictObject({ shown: ApiFaultsShown, draws: z.strictObject({ programme: Stream.optional(), rules: Stream.optional() }) }),
  journal: z.array(JournalEntry),
  tables: z.strictObject(Object.fromEntries(TABLES.map(({ name }) => [name, Table])) as Record<TableName, typeof Table>),
});

const Header = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(SNAPSHOT_VERSION),
  id: Uuid,
  name: z.string(),
  createdAt: z.iso.datetime(),
  /** The version of card-sandbox that wrote it. */
  sandbox: z.string(),
  /** The SHA-256 of its state's JSON text. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hexadecimal digits'),
});

const File = Header.extend({ state: State });

/** The file as the control plane's document describes it: its header, and its state as this version of the sandbox writes it. */
export const SnapshotFile = Header.extend({
  state: z
    .record(z.string(), z.unknown())
    .meta({ description: "The programme's clock, random streams, faults, pause, journal and the rows of its world table by table" }),
}).meta({ id: 'SnapshotFile' });

/** A snapshot read back: its header, and the state with the API fault lab's rules in their normal form. */
export type SnapshotRead = z.output<typeof File>;
export type RestoredState = SnapshotRead['state'];

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** What is wrong with a cell of `column`, as SQLite holds it; undefined when nothing is. */
function cellProblem(column: SQLiteColumn, value: unknown): string | undefined {
  if (value === null) return column.notNull ? 'must not be null' : undefined;
  switch (column.dataType) {
    case 'number':
      return Number.isSafeInteger(value) ? undefined : 'must be an integer';
    case 'boolean':
      return value === 0 || value === 1 ? undefined : 'must be 0 or 1';
    case 'json':
      return typeof value === 'string' && isJson(value) ? undefined : 'must be JSON text';
    default:
      if (typeof value !== 'string') return 'must be text';
      return column.enumValues && !column.enumValues.includes(value) ? `must be one of ${column.enumValues.join(', ')}` : undefined;
  }
}

/**
 * A file written before a column was added at the end of its table, empty where it may be, reads
 * with that column empty: the rows of such a table are given nulls for it. Any other difference of
 * columns is left for `rowProblems` to name.
 */
function withAddedColumns(tables: Record<TableName, TableRows>): void {
  for (const { name, columns } of TABLES) {
    const table = tables[name];
    const named = table.columns;
    const added = columns.slice(named.length);
    const prefix = named.length < columns.length && named.every((column, i) => column === columns[i]!.name);
    if (!prefix || added.some((column) => column.notNull)) continue;
    table.columns = columns.map((c) => c.name);
    table.rows = table.rows.map((row) => (Array.isArray(row) && row.length === named.length ? [...row, ...added.map(() => null)] : row));
  }
}

/** The first problems of the tables' rows: their columns this version's, every cell what its column holds. */
function rowProblems(tables: Record<TableName, TableRows>): FieldError[] {
  const problems: FieldError[] = [];
  for (const { name, columns } of TABLES) {
    const at = `state.tables.${name}`;
    const { columns: named, rows } = tables[name];
    const expected = columns.map((c) => c.name);
    if (named.join() !== expected.join()) {
      problems.push({ path: `${at}.columns`, message: `must be ${expected.join(', ')}` });
      continue;
    }
    for (let i = 0; i < rows.length && problems.length < 10; i++) {
      const row = rows[i];
      if (!Array.isArray(row) || row.length !== columns.length) {
        problems.push({ path: `${at}.rows.${i}`, message: `must be a list of ${columns.length} values` });
        continue;
      }
      columns.forEach((column, j) => {
        const problem = cellProblem(column, row[j]);
        if (problem) problems.push({ path: `${at}.rows.${i}.${column.name}`, message: problem });
      });
    }
  }
  return problems;
}

/**
 * Reads a snapshot file. `verify` checks a file from elsewhere whole — its digest and every cell —
 * which one the database kept needs not. A file that is not one, is cut short, corrupt or
 * malformed is an `invalid_snapshot`; one of another version of the format, `snapshot_version_unsupported`.
 */
export function readSnapshot(text: string, verify: boolean): SnapshotRead {
  if (text === '') fail('invalid_snapshot', 'the body is empty: send a snapshot file, as GET /_sandbox/snapshots/{id}/file gives it');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    fail('invalid_snapshot', `the file is not JSON (cut short or corrupt?): ${(error as Error).message}`);
  }
  const file = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  if (file.format !== SNAPSHOT_FORMAT) fail('invalid_snapshot', `this is not a snapshot file: it has no "format": "${SNAPSHOT_FORMAT}"`);
  if (file.version !== SNAPSHOT_VERSION) {
    if (typeof file.version !== 'number') fail('invalid_snapshot', 'the file has no version');
    const writer = typeof file.sandbox === 'string' ? ` (written by card-sandbox ${file.sandbox})` : '';
    fail(
      'snapshot_version_unsupported',
      `the file is a version ${file.version} snapshot${writer}; card-sandbox ${version()} reads version ${SNAPSHOT_VERSION}: restore it with the version that wrote it`,
    );
  }
  if (verify && (typeof file.sha256 !== 'string' || sha256(JSON.stringify(file.state)) !== file.sha256)) {
    fail('invalid_snapshot', 'the file is corrupt: its state does not match its sha256 (was it changed, or cut short and mended?)');
  }
  const parsed = File.safeParse(json);
  if (!parsed.success) throw refused(parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || 'file', message: issue.message })));
  withAddedColumns(parsed.data.state.tables);
  if (verify) {
    const problems = rowProblems(parsed.data.state.tables);
    if (problems.length) throw refused(problems);
  }
  return parsed.data;
}

/** Every problem found, in one refusal naming each place. */
function refused(errors: FieldError[]): SandboxError {
  const places = [...new Set(errors.map((e) => e.path))].join(', ');
  return new SandboxError('invalid_snapshot', `the snapshot file is invalid at ${places}${errors.length === 1 ? `: ${errors[0]!.message}` : ''}`, errors);
}
