/**
 * The snapshot file's description of a world (docs/snapshots.md: The file): for each of its tables,
 * the format's own fields — their names, what each holds (an id, a text, an instant as RFC 3339, a
 * boolean, a JSON value of a known shape…) and the database column it is kept in. The file is
 * written from the columns and read back into them through this list alone, so that a column added
 * to the database later changes neither the files written nor the files read: a column no field
 * names takes its default, and a field added to the format comes with a migration (migrations.ts).
 *
 * Reading a record checks every value to its kind (and, in range, every instant: domain/instant.ts)
 * before it becomes a cell; the checks that need the whole world are in checks.ts. The tables and
 * their fields are listed in tables.ts.
 */
import { getTableConfig, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { z } from 'zod';
import { UUID, Uuid } from '../domain/formats.js';
import { instantProblem } from '../domain/instant.js';
import { WORLD_TABLES, type WorldTableName } from '../store/world.js';

/** What a field holds, and how it is written in the file and kept in its column. */
type Kind =
  | { type: 'text'; rule?: z.ZodType<string>; accepts?: RegExp }
  | { type: 'decimal' }
  | { type: 'enum'; values: ReadonlySet<string> }
  | { type: 'int'; min: number; max: number }
  | { type: 'instant' }
  | { type: 'bool' }
  | { type: 'json'; schema: z.ZodType };

export interface Field {
  /** The format's name for it. */
  name: string;
  column: SQLiteColumn;
  kind: Kind;
  nullable: boolean;
}

export interface FormatTable {
  name: WorldTableName;
  sqlName: string;
  fields: Field[];
  /** Columns the format does not write, made from the record when it is read back (a lower-cased key). */
  derived: { column: SQLiteColumn; from: (record: Record<string, unknown>) => unknown }[];
  /** The rule a record obeys as a whole, once each field is checked: which field breaks it, and why. */
  check?: RecordCheck | undefined;
}

export type RecordCheck = (record: Record<string, unknown>) => { field: string; message: string } | undefined;

const field =
  (kind: Kind) =>
  (column: SQLiteColumn): Omit<Field, 'name'> => ({ column, kind, nullable: !column.notNull });
export const text = field({ type: 'text' });
/** A text the API itself checks with `rule` (a wire scalar, a request's field): the file's value must pass it too. */
export const textOf = (rule: z.ZodType<string>) => field({ type: 'text', rule });
/** A UUID: `Uuid`'s own pattern tested at once, the rule asked only for what is wrong with a value that fails it. */
export const uuid = field({ type: 'text', rule: Uuid, accepts: UUID });
/** An exact decimal string, signed: a balance an overdraft took below 0. */
export const decimal = field({ type: 'decimal' });
export const instant = field({ type: 'instant' });
export const bool = field({ type: 'bool' });
export const int = (min: number, max = Number.MAX_SAFE_INTEGER) => field({ type: 'int', min, max });
export const json = (schema: z.ZodType) => field({ type: 'json', schema });
export const enumOf = (column: SQLiteColumn) => field({ type: 'enum', values: new Set(column.enumValues ?? []) })(column);

export function table(
  name: WorldTableName,
  fields: Record<string, Omit<Field, 'name'>>,
  derived: Record<string, (record: Record<string, unknown>) => unknown> = {},
  check?: RecordCheck,
): FormatTable {
  const columns = getTableConfig(WORLD_TABLES[name]).columns;
  const byKey = Object.entries(WORLD_TABLES[name]) as [string, unknown][];
  const columnOf = (key: string) => {
    const column = byKey.find(([k]) => k === key)?.[1] as SQLiteColumn | undefined;
    if (!column || !columns.includes(column)) throw new Error(`snapshot format: ${name} has no column ${key}`);
    return column;
  };
  return {
    name,
    sqlName: getTableConfig(WORLD_TABLES[name]).name,
    fields: Object.entries(fields).map(([fieldName, f]) => ({ name: fieldName, ...f })),
    derived: Object.entries(derived).map(([key, from]) => ({ column: columnOf(key), from })),
    check,
  };
}

export type FileRecord = Record<string, unknown>;

/**
 * A field as the file writes it, in SQL over its column: the JSON text of its value, as
 * JSON.stringify writes it (SQLite's json_quote escapes a text exactly as it does), so that SQLite
 * writes a table's records without a JavaScript object per row. An instant is RFC 3339 with
 * milliseconds (every instant of the sandbox's range is a four-digit year); a boolean's 1 is
 * true; a JSON value is its column's text as it is — every JSON column is written by
 * JSON.stringify, so it is the text JSON.stringify would write of it again.
 */
function fieldSql(field: Field): string {
  const column = `"${field.column.name}"`;
  switch (field.kind.type) {
    case 'instant':
      // %f is the seconds with their milliseconds (SS.SSS): one call, its value exact to the millisecond.
      return `CASE WHEN ${column} IS NULL THEN 'null' ELSE strftime('"%Y-%m-%dT%H:%M:%fZ"', ${column} / 1000.0, 'unixepoch') END`;
    case 'bool':
      return `CASE WHEN ${column} IS NULL THEN 'null' WHEN ${column} = 1 THEN 'true' ELSE 'false' END`;
    case 'json':
      return `coalesce(${column}, 'null')`;
    default:
      return `json_quote(${column})`;
  }
}

/** A row's record as the file writes it, in SQL: a JSON object of the table's fields, in their order. */
export const recordSql = (table: FormatTable): string =>
  `'{' || ${table.fields.map((f, i) => `'${i ? ',' : ''}${JSON.stringify(f.name)}:' || ${fieldSql(f)}`).join(' || ')} || '}'`;

/** The columns a table's rows are read from and written to: the fields', then the derived ones. */
export const columnsOf = (table: FormatTable): SQLiteColumn[] => [...table.fields.map((f) => f.column), ...table.derived.map((d) => d.column)];

const DECIMAL = /^-?\d{1,18}(?:\.\d{1,18})?$/;

/** RFC 3339 as the file writes it: UTC, with milliseconds. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

let lastInstant: { text: string; read: { cell: number } } | undefined;

/** An instant of the file as epoch ms, or what is wrong with it: RFC 3339 in UTC, within the sandbox's range of time. */
export function fileInstant(value: unknown): { cell: number } | { problem: string } {
  // Rows made in the same instant follow one another: the last instant read is read again at once.
  if (lastInstant !== undefined && lastInstant.text === value) return lastInstant.read;
  if (typeof value !== 'string' || !INSTANT.test(value)) return { problem: 'must be an RFC 3339 instant in UTC, such as 2026-01-01T09:00:00.000Z' };
  const t = Date.parse(value);
  const problem = instantProblem(t);
  if (problem !== undefined) return { problem };
  lastInstant = { text: value, read: { cell: t } };
  return lastInstant.read;
}

/** What is wrong with a value the file holds for `field`, or its cell. */
function cellOf(field: Field, value: unknown): { cell: unknown } | { problem: string } {
  if (value === null || value === undefined) return field.nullable ? { cell: null } : { problem: value === undefined ? 'is missing' : 'must not be null' };
  const { kind } = field;
  switch (kind.type) {
    case 'text':
      if (typeof value !== 'string') return { problem: 'must be a string' };
      return kind.rule && !kind.accepts?.test(value) ? ruled(kind.rule, value, value) : { cell: value };
    case 'decimal':
      return typeof value === 'string' && DECIMAL.test(value) ? { cell: value } : { problem: 'must be a decimal string such as "100" or "-2.5"' };
    case 'enum':
      return typeof value === 'string' && kind.values.has(value) ? { cell: value } : { problem: `must be one of ${[...kind.values].join(', ')}` };
    case 'int':
      return Number.isSafeInteger(value) && (value as number) >= kind.min && (value as number) <= kind.max
        ? { cell: value }
        : { problem: `must be an integer from ${kind.min} to ${kind.max}` };
    case 'bool':
      return typeof value === 'boolean' ? { cell: value ? 1 : 0 } : { problem: 'must be true or false' };
    case 'instant':
      return fileInstant(value);
    case 'json':
      return jsonCell(kind.schema, value);
  }
}

/** JSON texts each schema accepted as they are (its output written as the same text), up to JSON_KEPT each. */
const accepted = new WeakMap<z.ZodType, Set<string>>();
const JSON_KEPT = 256;

/**
 * A JSON value's cell: the text of what `schema` made of it. A value read from a file is all its
 * JSON text says it is, so a text the schema accepted as it is once is accepted again without
 * asking it: a world holds many of the same (a card's billing address, an account's currencies).
 */
function jsonCell(schema: z.ZodType, value: unknown): { cell: unknown } | { problem: string } {
  const text = JSON.stringify(value);
  let kept = accepted.get(schema);
  if (kept?.has(text)) return { cell: text };
  const read = ruled(schema, value, undefined);
  if ('cell' in read && read.cell === text) {
    if (!kept || kept.size >= JSON_KEPT) accepted.set(schema, (kept = new Set()));
    kept.add(text);
  }
  return read;
}

/** `value` checked by `rule`: its cell (`cell`, or the JSON text of what the rule made of it), or the rule's first problem. */
function ruled(rule: z.ZodType, value: unknown, cell: unknown): { cell: unknown } | { problem: string } {
  const parsed = rule.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { problem: `${issue.path.length ? `${issue.path.join('.')} ` : ''}${issue.message}` };
  }
  return { cell: cell ?? JSON.stringify(parsed.data) };
}

export interface RecordProblem {
  path: string;
  message: string;
}

/**
 * The cells of one record, in the order `columnsOf(table)` names them; or its problems, each at
 * `<at>.<field>`. A field the format does not know is a problem too: the file is of another format.
 */
export function cellsOf(table: FormatTable, record: unknown, at: string, problems: RecordProblem[]): unknown[] | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    problems.push({ path: at, message: 'must be an object' });
    return undefined;
  }
  const given = record as FileRecord;
  const cells: unknown[] = [];
  let ok = true;
  for (const f of table.fields) {
    const read = cellOf(f, given[f.name]);
    if ('problem' in read) {
      problems.push({ path: `${at}.${f.name}`, message: read.problem });
      ok = false;
    } else cells.push(read.cell);
  }
  const known = table.fields.length;
  if (Object.keys(given).length !== known) {
    for (const name of Object.keys(given)) {
      if (!table.fields.some((f) => f.name === name)) {
        problems.push({ path: `${at}.${name}`, message: `is not a field of ${table.name}` });
        ok = false;
      }
    }
  }
  if (!ok) return undefined;
  const broken = table.check?.(given);
  if (broken) {
    problems.push({ path: `${at}.${broken.field}`, message: broken.message });
    return undefined;
  }
  for (const d of table.derived) cells.push(d.from(given));
  return cells;
}
