/**
 * A record as SQLite writes it into the file (format.ts `recordSql`): the same text JSON.stringify
 * writes of the record's values, so that a snapshot file reads as the API's own JSON does.
 */
import Database from 'better-sqlite3';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { MAX_INSTANT, MIN_INSTANT } from '../domain/instant.js';
import { recordSql, type Field, type FormatTable } from './format.js';

const fieldOf = (name: string, kind: Field['kind']): Field => ({ name, column: { name } as SQLiteColumn, kind, nullable: true });

/** A table of one field, its rows written in turn: each row's record as the file writes it. */
function written(kind: Field['kind'], type: string, values: unknown[]): string[] {
  const sqlite = new Database(':memory:');
  sqlite.exec(`CREATE TABLE t (v ${type})`);
  const insert = sqlite.prepare('INSERT INTO t (v) VALUES (?)');
  for (const value of values) insert.run(value);
  const table = { name: 'events', sqlName: 't', fields: [fieldOf('v', kind)], derived: [] } as FormatTable;
  const records = sqlite
    .prepare(`SELECT ${recordSql(table)} FROM t ORDER BY rowid`)
    .pluck()
    .all() as string[];
  sqlite.close();
  return records;
}

describe('recordSql', () => {
  it('writes an instant as JSON.stringify writes its Date: every millisecond of a second, the ends of the range, leap days', () => {
    const start = Date.UTC(2026, 2, 1, 9, 0, 59);
    const instants = [
      MIN_INSTANT,
      MAX_INSTANT,
      MAX_INSTANT - 1,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29),
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      ...Array.from({ length: 1000 }, (_, ms) => start + ms),
    ];
    // Spread over the whole range, the same each run.
    for (let i = 0, x = 7; i < 5000; i++) instants.push((x = (x * 48_271) % 2_147_483_647) * Math.floor(MAX_INSTANT / 2_147_483_647) + (x % 1000));
    expect(written({ type: 'instant' }, 'INTEGER', [...instants, null])).toEqual([...instants.map((t) => JSON.stringify({ v: new Date(t) })), '{"v":null}']);
  });

  it('writes a text as JSON.stringify does: quotes, backslashes, control characters and characters past ASCII', () => {
    const texts = ['plain', 'a "quoted" \\ word', 'line\nbreak\ttab\u0001', 'é ✓ 😀', ''];
    expect(written({ type: 'text' }, 'TEXT', texts)).toEqual(texts.map((v) => JSON.stringify({ v })));
  });
});
