/**
 * The one store adapter: better-sqlite3 behind drizzle, for a file (`--db path`) or `:memory:`.
 * Opening applies the shipped migrations. Durability: WAL with `synchronous = NORMAL` — a
 * committed transaction survives the process being killed (SIGKILL); only a power loss can take
 * the last commits, which a local emulator accepts for the write speed.
 */
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { eq } from 'drizzle-orm';
import { packagePath } from '../paths.js';
import * as schema from './schema.js';

export type Db = BetterSQLite3Database<typeof schema>;

export interface Store {
  readonly db: Db;
  readonly sqlite: Database.Database;
  readonly path: string;
  /** Runs `fn` in one SQLite transaction (nested calls become savepoints). Never await inside. */
  transaction<T>(fn: () => T): T;
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  close(): void;
}

let addon: string | undefined;

/**
 * better-sqlite3's native addon, named directly: finding it through the `bindings` package probes
 * the file system at every start and cannot work from the CLI bundle, which includes
 * better-sqlite3's JavaScript. Prebuilt or compiled at install, the addon is in build/Release/.
 */
function nativeBinding(): string {
  if (addon) return addon;
  try {
    return (addon = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node'));
  } catch {
    throw new Error("better-sqlite3's native addon (build/Release/better_sqlite3.node) is missing: run `npm rebuild better-sqlite3`");
  }
}

export function openStore(path = ':memory:'): Store {
  const sqlite = new Database(path, { nativeBinding: nativeBinding() });
  if (path !== ':memory:') {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
  }
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: packagePath('drizzle') });
  // One transaction function for every call (better-sqlite3 makes a nested call a savepoint):
  // building a new one per transaction cost more than a small transaction's own statements.
  const inTransaction = sqlite.transaction((fn: () => unknown) => fn());
  return {
    db,
    sqlite,
    path,
    transaction: <T>(fn: () => T) => inTransaction(fn) as T,
    getMeta: (key) => db.select().from(schema.meta).where(eq(schema.meta.key, key)).get()?.value,
    setMeta: (key, value) => {
      db.insert(schema.meta).values({ key, value }).onConflictDoUpdate({ target: schema.meta.key, set: { value } }).run();
    },
    close: () => sqlite.close(),
  };
}
