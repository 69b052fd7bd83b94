/**
 * A programme's world as rows of cells, read and written through the columns the snapshot format
 * names (format.ts `columnsOf`): a column it does not name keeps its default. One statement of each
 * kind per table, built when first used. A request in flight when a snapshot is taken never
 * finished: its idempotency key is not kept.
 */
import { once, sqlLiteral } from '../store/prepared.js';
import type { Store } from '../store/store.js';
import type { TableRows } from './file.js';
import { columnsOf } from './format.js';
import { FORMAT_TABLES } from './tables.js';

export function worldRows(store: Store) {
  const { sqlite } = store;
  const quote = (name: string) => `"${name}"`;
  const statements = FORMAT_TABLES.map((table) => {
    const from = quote(table.sqlName);
    const written = table.fields.map((f) => quote(f.column.name)).join(', ');
    const columns = columnsOf(table).map((c) => quote(c.name));
    return {
      name: table.name,
      select: once(() =>
        sqlite
          .prepare(
            `SELECT ${written} FROM ${from} WHERE programme_id = ?${table.name === 'idempotencyKeys' ? ` AND state = ${sqlLiteral('done')}` : ''} ORDER BY rowid`,
          )
          .raw(),
      ),
      current: once(() => sqlite.prepare(`SELECT rowid, ${columns.join(', ')} FROM ${from} WHERE programme_id = ? ORDER BY rowid`).raw()),
      removeFrom: once(() => sqlite.prepare(`DELETE FROM ${from} WHERE programme_id = ? AND rowid >= ?`)),
      insert: once(() => sqlite.prepare(`INSERT INTO ${from} (programme_id, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`)),
      any: once(() => sqlite.prepare(`SELECT 1 FROM ${from} WHERE programme_id = ? LIMIT 1`).pluck()),
      clear: once(() => sqlite.prepare(`DELETE FROM ${from} WHERE programme_id = ?`)),
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

  return {
    /** The programme's rows of every table, as the format's fields' columns hold them; call inside a transaction. */
    read: (programme: string): TableRows =>
      Object.fromEntries(statements.map((statement) => [statement.name, statement.select().all(programme) as unknown[][]])) as TableRows,
    /** Puts `rows` in place of the programme's, parents first; call inside a transaction with foreign keys deferred. */
    replace(programme: string, rows: TableRows): void {
      for (const statement of statements) replaceRows(statement, programme, rows[statement.name]);
    },
    /** Whether the programme's world holds no row. */
    empty: (programme: string): boolean => statements.every((statement) => statement.any().get(programme) === undefined),
    /**
     * Adds `rows` to the programme's, `batch` at a time, parents first, each batch in a transaction of
     * its own; `between` is awaited after each. Call on an empty world, whose rows no one reads meanwhile.
     */
    async add(programme: string, rows: TableRows, batch: number, between: () => Promise<void>): Promise<void> {
      for (const statement of statements) {
        const table = rows[statement.name];
        for (let from = 0; from < table.length; from += batch) {
          store.transaction(() => {
            for (let i = from; i < Math.min(from + batch, table.length); i++) statement.insert().run(programme, table[i]);
          });
          await between();
        }
      }
    },
    /** Deletes every row of the programme's world, children first; call inside a transaction. */
    clear(programme: string): void {
      for (const statement of statements.toReversed()) statement.clear().run(programme);
    },
  };
}
