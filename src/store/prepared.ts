/**
 * Queries built once. drizzle compiles a query's SQL every time one is run (tens of microseconds,
 * more than SQLite takes to run a small one), so the services build the queries of the request
 * paths on first use, with placeholders for what varies, and run the built query after that
 * (docs/benchmarks.md: Benchmarks). Whole-row writes bind every column, so one statement serves every row.
 */
import { eq, getTableColumns, is, sql, SQL } from 'drizzle-orm';
import { getTableConfig, type SQLiteColumn, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import type Database from 'better-sqlite3';
import type { Store } from './store.js';

/** `build()` on the first call, what it built on every call after. */
export function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

type Encode = (row: Record<string, unknown>) => unknown;

/**
 * A column's value as drizzle's own insert would bind it: through the column's encoder (booleans
 * as 0/1, JSON as text), a missing value as the column's default, else NULL.
 */
function encoderOf(key: string, column: SQLiteColumn): Encode {
  const fallback = column.hasDefault && column.default !== undefined && !is(column.default, SQL) ? column.mapToDriverValue(column.default) : null;
  return (row) => {
    const value = row[key];
    return value === undefined ? fallback : value === null ? null : column.mapToDriverValue(value);
  };
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A string as an SQL literal, its quotes doubled: for a value fixed for the life of a statement (a
 * programme's id) that would cost a new query plan on every run if bound. SQLite as better-sqlite3
 * builds it plans a statement with ORDER BY, min()/max(), a LIMIT or a join again every time it
 * runs when it binds a value compared for equality, or the LIMIT — ten times the cost of running a
 * small one; a bound range (`<= ?`) does not.
 */
export const sqlLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** `column = 'text'` for drizzle's queries, the text written into the statement (sqlLiteral) rather than bound. */
export const equalsLiteral = (column: SQLiteColumn, text: string): SQL => eq(column, sql.raw(sqlLiteral(text)));

/**
 * The names SQLite's own statements use for `table`, each from the schema: its name (with `alias`
 * after it when given) and each column's, qualified by the alias, by the property it has in the
 * schema: `names(deliveries, 'd').nextAttemptAt` is `d."next_attempt_at"`.
 */
export function names<T extends SQLiteTable>(table: T, alias?: string): { table: string } & Record<keyof T['_']['columns'], string> {
  const name = quote(getTableConfig(table).name);
  const columns = Object.entries(getTableColumns(table) as Record<string, SQLiteColumn>).map(([key, column]) => [
    key,
    alias ? `${alias}.${quote(column.name)}` : quote(column.name),
  ]);
  return { ...Object.fromEntries(columns), table: alias ? `${name} ${alias}` : name } as { table: string } & Record<keyof T['_']['columns'], string>;
}

/** A select list of `columns` (from `names`), each named as its property: `d."event_id" AS "eventId"`. */
export const selectList = <K extends string>(columns: Record<K, string>, keys: readonly K[]): string =>
  keys.map((key) => `${columns[key]} AS ${quote(key)}`).join(', ');

/** How many of a table's columns, from its first, may be left out of an insert: those left out are the bits of a 32-bit mask. */
const MAX_LEFT_OUT = 30;
/** Inserts kept per table, one per set of columns given a value and number of rows (a few are used). */
const MAX_INSERTS = 64;
/** The most rows one statement of `rowsInserter` inserts: a run of more is split, a power of two at a time, so that few statements serve every count. */
const MAX_ROWS = 16;

/**
 * Inserts whole rows into `table` with prepared statements. A column the row leaves NULL that has
 * no default is left out of the statement rather than bound (it is NULL all the same): binding a
 * value through better-sqlite3 costs more than SQLite's own work for it, and a webhook attempt's
 * row is mostly NULLs. One statement per set of columns left out, made on first use.
 */
export function rowInserter<T extends SQLiteTable>(store: Store, table: T): (row: T['$inferInsert']) => void {
  const { encode, statementFor } = inserter(store, table);
  return (row) => {
    const { values, leftOut } = encode(row);
    statementFor(leftOut, 1).run(values);
  };
}

/**
 * `rowInserter` for many rows at once, in order: consecutive rows that leave out the same columns
 * go in one statement (`VALUES (…), (…)`), which costs better-sqlite3 and SQLite one run for them all.
 */
export function rowsInserter<T extends SQLiteTable>(store: Store, table: T): (rows: readonly T['$inferInsert'][]) => void {
  const { encode, statementFor } = inserter(store, table);
  return (rows) => {
    let run: unknown[] = [];
    let count = 0;
    let mask = 0;
    const flush = () => {
      const per = run.length / count;
      while (count > 0) {
        // The largest power of two that fits: a run of 28 rows is three statements, of 16, 8 and 4.
        const n = Math.min(MAX_ROWS, 2 ** Math.floor(Math.log2(count)));
        statementFor(mask, n).run(n === count ? run : run.slice(0, n * per));
        run = run.slice(n * per);
        count -= n;
      }
    };
    for (const row of rows) {
      const { values, leftOut } = encode(row);
      if (count > 0 && leftOut !== mask) flush();
      mask = leftOut;
      for (const value of values) run.push(value);
      count++;
    }
    if (count > 0) flush();
  };
}

/** A row's values to bind and the columns it leaves out (a mask), and the statement for `rows` rows of that kind. */
function inserter<T extends SQLiteTable>(store: Store, table: T) {
  const columns = Object.entries(getTableColumns(table) as Record<string, SQLiteColumn>);
  const encoders = columns.map(([key, column]) => encoderOf(key, column));
  const omissible = columns.map(([, column], i) => i < MAX_LEFT_OUT && !column.hasDefault);
  const statements = new Map<number, Database.Statement>();
  return {
    encode(row: T['$inferInsert']): { values: unknown[]; leftOut: number } {
      const values: unknown[] = [];
      let leftOut = 0;
      for (let i = 0; i < encoders.length; i++) {
        const value = encoders[i]!(row as Record<string, unknown>);
        if (value === null && omissible[i]) leftOut |= 1 << i;
        else values.push(value);
      }
      return { values, leftOut };
    },
    statementFor(leftOut: number, rows: number): Database.Statement {
      const key = leftOut * (MAX_ROWS + 1) + rows;
      let statement = statements.get(key);
      if (statement === undefined) {
        const given = columns.filter((_, i) => !(leftOut & (1 << i)));
        const tuple = `(${given.map(() => '?').join(', ')})`;
        statement = store.sqlite.prepare(
          `insert into ${quote(getTableConfig(table).name)} (${given.map(([, c]) => quote(c.name)).join(', ')}) values ${Array<string>(rows).fill(tuple).join(', ')}`,
        );
        if (statements.size >= MAX_INSERTS) statements.clear();
        statements.set(key, statement);
      }
      return statement;
    },
  };
}

/**
 * Writes a whole row of `table` — every column but its key (programme_id, id) — over the row with
 * the same key, with one prepared statement. Returns how many rows changed (0 or 1).
 */
export function rowUpdater<T extends SQLiteTable & { programmeId: SQLiteColumn; id: SQLiteColumn }>(
  store: Store,
  table: T,
): (row: T['$inferSelect']) => number {
  const all = Object.entries(getTableColumns(table) as Record<string, SQLiteColumn>);
  const key = ['programmeId', 'id'];
  const columns = all.filter(([name]) => !key.includes(name));
  const encoders = [...columns, ...key.map((name) => all.find(([k]) => k === name)!)].map(([name, column]) => encoderOf(name, column));
  const statement = once(() =>
    store.sqlite.prepare(
      `update ${quote(getTableConfig(table).name)} set ${columns.map(([, c]) => `${quote(c.name)} = ?`).join(', ')} where ${quote(table.programmeId.name)} = ? and ${quote(table.id.name)} = ?`,
    ),
  );
  return (row) => statement().run(encoders.map((encode) => encode(row as Record<string, unknown>))).changes;
}
