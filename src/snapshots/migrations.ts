/**
 * Snapshot files of earlier versions of the format, brought to the current one (docs/snapshots.md:
 * Versions of the file). Each migration takes a file's state of one version to the next; a file is
 * read by running those from its version on, then checked as any file of the current version is.
 * A file of a version this sandbox has no migration from (a later one) is refused, naming both.
 *
 * Version 1 held each table as SQLite's column list and rows of cells, and the clock as epoch
 * milliseconds; version 2 holds each table as records of the format's own fields (format.ts), every
 * instant as RFC 3339; version 3 adds each account's `balance` (docs/money-path.md: Funds), which
 * a file of version 2 or before did not hold: its accounts start at the default starting balance.
 */
import { DEFAULT_STARTING_BALANCE } from '../domain/funds.js';
import type { Field } from './format.js';
import { FORMAT_TABLES } from './tables.js';

type State = Record<string, unknown>;

/** Problems found while migrating: the place and what is wrong. */
export class MigrationProblem extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A version 1 cell as version 2 writes it. A cell that cannot be converted stays as it is, for the
 * checks of version 2 to refuse by its place (an instant that is no number, a JSON cell that is no JSON).
 */
function v1Value(field: Field, cell: unknown): unknown {
  if (cell === null || cell === undefined) return null;
  switch (field.kind.type) {
    case 'instant':
      return typeof cell === 'number' && Number.isFinite(cell) && Math.abs(cell) <= 8.64e15 ? new Date(cell).toISOString() : cell;
    case 'bool':
      return cell === 0 || cell === 1 ? cell === 1 : cell;
    case 'json':
      try {
        return typeof cell === 'string' ? (JSON.parse(cell) as unknown) : cell;
      } catch {
        return cell;
      }
    default:
      return cell;
  }
}

/** Fields a later migration than 1 → 2 adds: version 1 leaves them to it. */
const LATER_FIELDS = new Set(['accounts.balance']);

/** Version 1 → 2: column lists become records, the clock an instant. */
function fromVersion1(state: State): State {
  const tables = state.tables as Record<string, { columns?: unknown; rows?: unknown }> | undefined;
  if (typeof tables !== 'object' || tables === null) throw new MigrationProblem('state.tables', 'must be an object of tables');
  const world: Record<string, Record<string, unknown>[]> = {};
  for (const table of FORMAT_TABLES) {
    const at = `state.tables.${table.name}`;
    const kept = tables[table.name];
    if (typeof kept !== 'object' || kept === null || !Array.isArray(kept.columns) || !Array.isArray(kept.rows))
      throw new MigrationProblem(at, 'must be {columns, rows}');
    const columns = kept.columns as unknown[];
    // A field whose column came after the file was written (an authorisation's captured amount, an attempt's forgery) is left empty.
    const index = table.fields.map((field) => {
      const i = columns.indexOf(field.column.name);
      if (i < 0 && !field.nullable && !LATER_FIELDS.has(`${table.name}.${field.name}`))
        throw new MigrationProblem(`${at}.columns`, `must name ${field.column.name}`);
      return i;
    });
    world[table.name] = (kept.rows as unknown[]).map((row, r) => {
      if (!Array.isArray(row) || row.length !== columns.length) throw new MigrationProblem(`${at}.rows.${r}`, `must be a list of ${columns.length} values`);
      const record: Record<string, unknown> = {};
      table.fields.forEach((field, f) => {
        if (index[f]! >= 0) record[field.name] = v1Value(field, row[index[f]!]);
        else if (!LATER_FIELDS.has(`${table.name}.${field.name}`)) record[field.name] = null;
      });
      return record;
    });
  }
  const clock = state.clock as { now?: unknown; frozen?: unknown } | undefined;
  const now = v1Value({ kind: { type: 'instant' } } as Field, clock?.now);
  const { tables: _tables, ...rest } = state;
  return { ...rest, clock: { ...clock, now }, world };
}

/** Version 2 → 3: each account gets the balance a new account starts with by default. */
function fromVersion2(state: State): State {
  const world = state.world as Record<string, unknown> | undefined;
  const accounts = world?.accounts;
  if (!Array.isArray(accounts)) return state;
  const withBalance = accounts.map((record: unknown) =>
    typeof record === 'object' && record !== null && !('balance' in record) ? { ...record, balance: DEFAULT_STARTING_BALANCE } : record,
  );
  return { ...state, world: { ...world, accounts: withBalance } };
}

/** Each version's migration to the next, by the version it reads. */
const MIGRATIONS: Record<number, (state: State) => State> = { 1: fromVersion1, 2: fromVersion2 };

/** The versions this sandbox reads: each one a migration leads from, and the current one. */
export const readableVersions = (current: number): number[] => [...Object.keys(MIGRATIONS).map(Number), current].sort((a, b) => a - b);

/** A state of `version` brought to `current`. */
export function migrate(state: State, version: number, current: number): State {
  let at = state;
  for (let v = version; v < current; v++) at = MIGRATIONS[v]!(at);
  return at;
}
