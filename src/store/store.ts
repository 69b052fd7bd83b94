/**
 * The one store adapter: better-sqlite3 behind drizzle, for a file (`--db path`) or `:memory:`.
 * Opening applies the shipped migrations. Durability: WAL with `synchronous = NORMAL` — a
 * committed transaction survives the process being killed (SIGKILL); only a power loss can take
 * the last commits, which a local emulator accepts for the write speed.
 */
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

export function openStore(path = ':memory:'): Store {
  const sqlite = new Database(path);
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
