/**
 * A record of every row a sandbox's database writes, kept by temporary SQLite triggers on the
 * sandbox's own connection: each insert, delete and update that really changes a value, by table
 * and rowid. A test clears it, sends a request, and can then show the request changed nothing —
 * no row added, removed or edited, no event written — at no cost to the request. Not shipped.
 */
import type { Store } from '../store/store.js';

export interface Change {
  table: string;
  /** `update-apart`: only columns named in `apart` changed. */
  op: 'insert' | 'update' | 'update-apart' | 'delete';
  rowid: number;
}

export interface ChangeRecorder {
  /** What was written since the last clear. */
  changes(): Change[];
  clear(): void;
}

export interface RecordOptions {
  /** Tables not watched, e.g. `idempotency_keys`, which records refusals by design (docs/signatures.md: Idempotency). */
  except?: readonly string[];
  /** Columns per table whose changes are recorded apart, for refusals the contract lets touch them. */
  apart?: Readonly<Record<string, readonly string[]>>;
}

/** Every user table (not SQLite's own, not the migration ledger), by name. */
function tableNames(store: Store): string[] {
  return (
    store.sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name")
      .all() as { name: string }[]
  ).map((r) => r.name);
}

export function recordChanges(store: Store, options: RecordOptions = {}): ChangeRecorder {
  const { sqlite } = store;
  sqlite.exec('CREATE TEMP TABLE IF NOT EXISTS recorded_changes (tbl TEXT NOT NULL, op TEXT NOT NULL, row INTEGER NOT NULL)');
  for (const table of tableNames(store)) {
    if (options.except?.includes(table)) continue;
    const apart = options.apart?.[table] ?? [];
    const columns = (sqlite.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
    // An update that writes the values a row already had changes nothing, so it is not recorded.
    const differ = (names: string[]) => (names.length ? names.map((c) => `OLD."${c}" IS NOT NEW."${c}"`).join(' OR ') : '0');
    const changed = differ(columns.filter((c) => !apart.includes(c)));
    const changedApart = `(${differ([...apart])}) AND NOT (${changed})`;
    sqlite.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS "rec_ins_${table}" AFTER INSERT ON main."${table}" BEGIN INSERT INTO recorded_changes VALUES ('${table}', 'insert', NEW.rowid); END;
      CREATE TEMP TRIGGER IF NOT EXISTS "rec_del_${table}" AFTER DELETE ON main."${table}" BEGIN INSERT INTO recorded_changes VALUES ('${table}', 'delete', OLD.rowid); END;
      CREATE TEMP TRIGGER IF NOT EXISTS "rec_upd_${table}" AFTER UPDATE ON main."${table}" WHEN ${changed} BEGIN INSERT INTO recorded_changes VALUES ('${table}', 'update', NEW.rowid); END;
      CREATE TEMP TRIGGER IF NOT EXISTS "rec_apart_${table}" AFTER UPDATE ON main."${table}" WHEN ${changedApart} BEGIN INSERT INTO recorded_changes VALUES ('${table}', 'update-apart', NEW.rowid); END;
    `);
  }
  const read = sqlite.prepare('SELECT tbl, op, row FROM recorded_changes ORDER BY rowid');
  const wipe = sqlite.prepare('DELETE FROM recorded_changes');
  return {
    changes: () => (read.all() as { tbl: string; op: Change['op']; row: number }[]).map((r) => ({ table: r.tbl, op: r.op, rowid: r.row })),
    clear: () => void wipe.run(),
  };
}
