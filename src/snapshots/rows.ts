/**
 * A programme's world as rows of cells, read and written through the columns the snapshot format
 * names (format.ts `columnsOf`): a column it does not name keeps its default. One statement of each
 * kind per table, built when first used. A request in flight when a snapshot is taken never
 * finished: its idempotency key is not kept.
 */
import { setImmediate as turn } from 'node:timers/promises';
import { once, sqlLiteral } from '../store/prepared.js';
import type { Store } from '../store/store.js';
import type { TableName, TableRows, WorldText } from './file.js';
import { columnsOf, recordSql } from './format.js';
import { FORMAT_TABLES } from './tables.js';

/** How many rows a restore reads, writes or deletes in one step: a transaction, then a turn of the event loop. */
export const STEP = 2_000;

/** How many rows one insert writes when there are that many to write: one call and one statement run for them all, rather than one a row. */
const BATCH = 100;

export function worldRows(store: Store) {
  const { sqlite } = store;
  const quote = (name: string) => `"${name}"`;
  const statements = FORMAT_TABLES.map((table) => {
    const from = quote(table.sqlName);
    const written = table.fields.map((f) => quote(f.column.name)).join(', ');
    const columns = columnsOf(table).map((c) => quote(c.name));
    const row = `(?, ${columns.map(() => '?').join(', ')})`;
    const kept = `programme_id = ?${table.name === 'idempotencyKeys' ? ` AND state = ${sqlLiteral('done')}` : ''}`;
    return {
      name: table.name,
      select: once(() => sqlite.prepare(`SELECT ${written} FROM ${from} WHERE ${kept} ORDER BY rowid`).raw()),
      // The table's records as the file writes them: the bytes of a JSON list, and how many.
      text: once(() =>
        sqlite
          .prepare(
            `SELECT CAST(coalesce('[' || group_concat(${recordSql(table)}, ',' ORDER BY rowid) || ']', '[]') AS BLOB), count(*) FROM ${from} WHERE ${kept}`,
          )
          .raw(),
      ),
      page: once(() =>
        sqlite.prepare(`SELECT rowid, ${columns.join(', ')} FROM ${from} WHERE programme_id = ? AND rowid > ? ORDER BY rowid LIMIT ${STEP}`).raw(),
      ),
      countFrom: once(() => sqlite.prepare(`SELECT count(*) FROM ${from} WHERE programme_id = ? AND rowid >= ?`).pluck()),
      removeFrom: once(() => sqlite.prepare(`DELETE FROM ${from} WHERE programme_id = ? AND rowid >= ?`)),
      insert: once(() => sqlite.prepare(`INSERT INTO ${from} (programme_id, ${columns.join(', ')}) VALUES ${row}`)),
      insertBatch: once(() => sqlite.prepare(`INSERT INTO ${from} (programme_id, ${columns.join(', ')}) VALUES ${Array(BATCH).fill(row).join(', ')}`)),
      any: once(() => sqlite.prepare(`SELECT 1 FROM ${from} WHERE programme_id = ? LIMIT 1`).pluck()),
      count: once(() => sqlite.prepare(`SELECT count(*) FROM ${from} WHERE programme_id = ?`).pluck()),
      clearSome: once(() => sqlite.prepare(`DELETE FROM ${from} WHERE rowid IN (SELECT rowid FROM ${from} WHERE programme_id = ? LIMIT ${STEP})`)),
      // The rowid a step of a copy ends at: the STEP-th row after `rowid`, or none for the last step.
      stepEnd: once(() => sqlite.prepare(`SELECT rowid FROM ${from} WHERE programme_id = ? AND rowid > ? ORDER BY rowid LIMIT 1 OFFSET ${STEP - 1}`).pluck()),
      copy: once(() =>
        sqlite.prepare(
          `INSERT INTO ${from} (programme_id, ${columns.join(', ')}) SELECT ?, ${columns.join(', ')} FROM ${from} WHERE programme_id = ? AND rowid > ? AND rowid <= ? ORDER BY rowid`,
        ),
      ),
    };
  });

  /** Writes `rows` from `from` up to `to` as the programme's, in order: BATCH a statement, then the rest one by one. */
  const insert = (statement: (typeof statements)[number], programme: string, rows: unknown[][], from: number, to: number) => {
    let i = from;
    for (const args: unknown[] = []; i + BATCH <= to; args.length = 0) {
      for (const end = i + BATCH; i < end; i++) args.push(programme, rows[i]);
      statement.insertBatch().run(...args);
    }
    for (; i < to; i++) statement.insert().run(programme, rows[i]);
  };

  /**
   * Which of the programme's rows of one table stay: those already there as `rows` hold them, from
   * the first on (a world changed at its end — new resources, events and attempts, as a test makes
   * them — costs only what changed). From the first that differs on (`from`, its rowid), rows are
   * deleted and written again in order, so that they keep the order they were made in (which lists
   * follow where their times tie). Read a page at a time, yielding between pages.
   */
  function* tablePlan(statement: (typeof statements)[number], programme: string, rows: unknown[][]): Generator<void, TablePlan> {
    const matches = (row: unknown[], kept: unknown[]) => row.every((cell, i) => cell === kept[i + 1]);
    let same = 0;
    for (let after = 0; ; yield) {
      const page = statement.page().all(programme, after) as unknown[][];
      for (const kept of page) {
        if (same < rows.length && matches(rows[same]!, kept)) same++;
        else {
          const from = kept[0] as number;
          return { same, from, removed: statement.countFrom().get(programme, from) as number };
        }
      }
      if (page.length < STEP) return { same, removed: 0 };
      after = page.at(-1)![0] as number;
    }
  }

  return {
    /** The programme's rows of every table, as the format's fields' columns hold them; call inside a transaction. */
    read: (programme: string): TableRows =>
      Object.fromEntries(statements.map((statement) => [statement.name, statement.select().all(programme) as unknown[][]])) as TableRows,
    /** The programme's world as the file writes it: each table's list of records as JSON, in FORMAT_TABLES' order, and how many each holds; call inside a transaction. */
    text: (programme: string): WorldText => {
      const read = statements.map((statement) => statement.text().get(programme) as [Uint8Array, number]);
      return {
        tables: read.map(([json]) => json),
        counts: Object.fromEntries(read.map(([, n], i) => [statements[i]!.name, n])) as Record<TableName, number>,
      };
    },
    /** How many rows the programme's world holds. */
    count: (programme: string): number => statements.reduce((n, statement) => n + (statement.count().get(programme) as number), 0),
    /** Whether the programme's world holds no row. */
    empty: (programme: string): boolean => statements.every((statement) => statement.any().get(programme) === undefined),
    /** What putting `rows` in place of the programme's rows takes (tablePlan), yielding between pages of what it reads. */
    *planning(programme: string, rows: TableRows): Generator<void, Plan> {
      const tables = [];
      for (const statement of statements) tables.push(yield* tablePlan(statement, programme, rows[statement.name]));
      return { tables, work: tables.reduce((n, table, i) => n + table.removed + rows[statements[i]!.name].length - table.same, 0) };
    },
    /** Puts `rows` in place of the programme's as `plan` says, parents first; call inside a transaction with foreign keys deferred. */
    replace(programme: string, rows: TableRows, plan: Plan): void {
      statements.forEach((statement, t) => {
        const { same, from } = plan.tables[t]!;
        if (from !== undefined) statement.removeFrom().run(programme, from);
        const table = rows[statement.name];
        insert(statement, programme, table, same, table.length);
      });
    },
    /** Adds `rows` to the programme's, parents first, STEP rows a transaction, yielding after each. */
    *adding(programme: string, rows: TableRows): Generator<void> {
      for (const statement of statements) {
        const table = rows[statement.name];
        for (let from = 0; from < table.length; from += STEP) {
          store.transaction(() => insert(statement, programme, table, from, Math.min(from + STEP, table.length)));
          yield;
        }
      }
    },
    /** Copies the rows of programme `from` to programme `to`, in their order, parents first, STEP rows a transaction, yielding after each. */
    *copying(from: string, to: string): Generator<void> {
      for (const statement of statements)
        for (let after: number | undefined = 0; after !== undefined; yield) {
          const end = statement.stepEnd().get(from, after) as number | undefined;
          const start = after;
          store.transaction(() => statement.copy().run(to, from, start, end ?? Number.MAX_SAFE_INTEGER));
          after = end;
        }
    },
    /** Deletes every row of the programme's world, children first, STEP rows a transaction, yielding after each. */
    *clearing(programme: string): Generator<void> {
      for (const statement of statements.toReversed()) while (store.transaction(() => statement.clearSome().run(programme).changes) > 0) yield;
    },
  };
}

/** What a restore does to one table: keeps its first `same` rows, deletes those from rowid `from` on (`removed` of them). */
interface TablePlan {
  same: number;
  from?: number;
  removed: number;
}

/** What a restore does to each table (in FORMAT_TABLES' order), and how many rows it deletes and writes in all. */
export interface Plan {
  tables: TablePlan[];
  work: number;
}

/** Runs `steps` to their end at once, answering what they return. */
export function atOnce<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs `steps` with a turn of the event loop after each, so that other requests are answered between them. */
export async function inSteps<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await turn();
  }
}
