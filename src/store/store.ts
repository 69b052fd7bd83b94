/**
 * The one store adapter: better-sqlite3 behind drizzle, for a file (`--db path`) or `:memory:`.
 * Opening applies the shipped migrations. Durability: WAL with `synchronous = NORMAL` — a
 * committed transaction survives the process being killed (SIGKILL); only a power loss can take
 * the last commits, which a local emulator accepts for the write speed.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { ConfigError } from '../config/index.js';
import { packagePath } from '../kernel/paths.js';
import * as schema from './schema.js';
import { nativeBinding } from './sqlite-addon.js';

export type Db = BetterSQLite3Database<typeof schema>;

export interface Store {
  readonly db: Db;
  readonly sqlite: Database.Database;
  readonly path: string;
  /** Runs `fn` in one SQLite transaction (nested calls become savepoints). Never await inside. */
  transaction<T>(fn: () => T): T;
  /**
   * Runs `fn` once the transaction it is called in has committed — at once outside one; never if
   * that transaction, or the savepoint it was called in, rolls back.
   */
  onCommit(fn: () => void): void;
  close(): void;
}

const writable = (path: string) => {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

/** What the file system says about a database path that could not be opened. */
export interface OpenFacts {
  path: string;
  /** The directory that should hold it, and whether it exists. */
  dir: string;
  dirExists: boolean;
  /** The directory or file this process may not write to, and its owner. */
  blocked?: { path: string; owner: number } | undefined;
  uid?: number | undefined;
  /** SQLite's own words. */
  reason: string;
}

/**
 * Why a database file cannot be opened, saying how to fix it. The usual cause is a directory the
 * sandbox's user may not write to, such as a root-owned bind mount in a container that runs as uid
 * 1000: SQLite itself only says "unable to open database file".
 */
export function openFailureMessage({ path, dir, dirExists, blocked, uid, reason }: OpenFacts): string {
  const cannot = `cannot open the database ${path}`;
  if (!dirExists) return `${cannot}: the directory ${dir} does not exist; create it first`;
  if (!blocked || uid === undefined) return `${cannot}: ${reason}`;
  return (
    `${cannot}: ${blocked.path} is not writable by uid ${uid} (it belongs to uid ${blocked.owner}). Give uid ${uid} write access ` +
    `(for a bind mount, on the host: \`sudo chown -R ${uid} <directory>\`), or in Docker use a named volume ` +
    `(\`-v card-sandbox-data:/data\`) or run as the owner (\`docker run --user ${blocked.owner} …\`)`
  );
}

function openFailure(path: string, error: unknown): ConfigError {
  const file = resolve(path);
  const dir = dirname(file);
  const dirExists = existsSync(dir);
  const blocked = !dirExists ? undefined : !writable(dir) ? dir : existsSync(file) && !writable(file) ? file : undefined;
  return new ConfigError(
    openFailureMessage({
      path,
      dir,
      dirExists,
      blocked: blocked === undefined ? undefined : { path: blocked, owner: statSync(blocked).uid },
      uid: process.getuid?.(),
      reason: (error as Error).message,
    }),
  );
}

/**
 * An empty database with every migration applied, written by `npm run build` (scripts/bundle.mjs):
 * a new in-memory database starts as a copy of it instead of running each migration's statements,
 * which took most of an in-memory start. The migrations still run after it and find nothing to do;
 * were it older than they are, they would bring it up to date.
 */
export const MIGRATED_IMAGE = packagePath('dist', 'migrated.sqlite');

/**
 * SQLite's page cache for an in-memory database, in pages (4 KiB each). Its pages are in memory
 * already (SQLite's memory file), and the cache held up to 16 MiB of copies of them beside, which
 * every commit went through: a few hundred KiB of the pages in use keep the writes fastest
 * (docs/reliability.md: Resources are bounded).
 */
export const MEMORY_CACHE_PAGES = 128;

function openSqlite(path: string): Database.Database {
  const addon = nativeBinding();
  let sqlite: Database.Database | undefined;
  try {
    const source = path === ':memory:' && existsSync(MIGRATED_IMAGE) ? readFileSync(MIGRATED_IMAGE) : path;
    sqlite = new Database(source, { nativeBinding: addon });
    if (path === ':memory:') {
      sqlite.pragma(`cache_size = ${MEMORY_CACHE_PAGES}`);
      // Its temporary files in memory too: a statement's journal of what it changes (a snapshot's
      // 6 MiB file written, a world copied) went to a file on disk past 64 KiB, 20 times the write's CPU.
      sqlite.pragma('temp_store = MEMORY');
    } else {
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('synchronous = NORMAL');
    }
    return sqlite;
  } catch (error) {
    sqlite?.close();
    throw openFailure(path, error);
  }
}

/** How many prepared statements a store keeps for drizzle (distinct SQL texts; a few hundred are used). */
const MAX_STATEMENTS = 2000;

/**
 * The connection as drizzle uses it: its better-sqlite3 session calls `prepare` and `transaction`
 * on its client and nothing else (store.test.ts holds it to that). SQLite's parsing and planning of
 * a statement cost more than running it, and drizzle prepares every query it runs, so statements
 * are kept by their SQL text and reused. drizzle switches a reused statement to raw (array) rows
 * for its selects; it is switched back for a caller that wants objects. Statements prepared on
 * `sqlite` itself are not kept.
 */
function drizzleClient(sqlite: Database.Database): Database.Database {
  const statements = new Map<string, Database.Statement>();
  const client = {
    prepare(source: string): Database.Statement {
      let statement = statements.get(source);
      if (statement === undefined || statement.busy) {
        statement = sqlite.prepare(source);
        if (statements.size >= MAX_STATEMENTS) statements.clear();
        statements.set(source, statement);
      } else if (statement.reader) statement.raw(false);
      return statement;
    },
    transaction: sqlite.transaction.bind(sqlite),
  };
  // drizzle's type asks for the whole connection, of which it calls these two.
  return client as unknown as Database.Database;
}

export function openStore(path = ':memory:'): Store {
  const sqlite = openSqlite(path);
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(drizzleClient(sqlite), { schema });
  // Migrations rebuild tables (SQLite cannot alter a primary key), which references would forbid
  // or cascade through: they run with them off, and what they leave is checked before they are on.
  sqlite.pragma('foreign_keys = OFF');
  migrate(db, { migrationsFolder: packagePath('drizzle') });
  const broken = sqlite.pragma('foreign_key_check') as unknown[];
  if (broken.length > 0) throw new Error(`the database ${path} has ${broken.length} rows whose references are broken (PRAGMA foreign_key_check)`);
  sqlite.pragma('foreign_keys = ON');
  // One transaction function for every call (better-sqlite3 makes a nested call a savepoint):
  // building a new one per transaction cost more than a small transaction's own statements.
  const inTransaction = sqlite.transaction((fn: () => unknown) => fn());
  // What waits for a commit, one list per transaction and savepoint, the innermost last.
  const waiting: Array<Array<() => void>> = [];
  return {
    db,
    sqlite,
    path,
    transaction<T>(fn: () => T): T {
      waiting.push([]);
      let result: T;
      try {
        result = inTransaction(fn) as T;
      } catch (error) {
        waiting.pop();
        throw error;
      }
      const done = waiting.pop()!;
      if (waiting.length > 0) waiting.at(-1)!.push(...done);
      else for (const fn of done) fn();
      return result;
    },
    onCommit(fn) {
      if (waiting.length > 0) waiting.at(-1)!.push(fn);
      else fn();
    },
    close: () => sqlite.close(),
  };
}
