/**
 * The store's durability settings: a file database runs in WAL mode with synchronous = NORMAL,
 * so a commit is in the file's write-ahead log (the operating system's, not the process's) as
 * soon as `transaction` returns, and a failed transaction leaves nothing. The SIGKILL test in
 * src/reliability/crash.e2e.test.ts shows the same on a running sandbox.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { DEFAULT_PROGRAMME } from '../domain/programme.js';
import { customers, programmes } from './schema.js';
import { MEMORY_CACHE_PAGES, MIGRATED_IMAGE, openFailureMessage, openStore, type Store } from './store.js';

describe('openStore', () => {
  let dir: string;
  const opened: Store[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'card-sandbox-store-'));
  });
  const open = (path: string) => {
    const store = openStore(path);
    opened.push(store);
    return store;
  };
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts an in-memory database from the built image with the schema the migrations make', () => {
    const schema = (store: Store) => ({
      tables: store.sqlite.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all(),
      migrations: store.sqlite.prepare('SELECT hash, created_at FROM __drizzle_migrations ORDER BY id').all(),
      foreignKeys: store.sqlite.pragma('foreign_keys', { simple: true }),
    });
    expect(existsSync(MIGRATED_IMAGE), 'npm run build writes the image').toBe(true);
    expect(schema(open(':memory:'))).toEqual(schema(open(join(dir, 'migrated.db'))));
  });

  it("keeps an in-memory database once, with a page cache of MEMORY_CACHE_PAGES beside it and its temporary files in memory; a file keeps SQLite's own", () => {
    expect(open(':memory:').sqlite.pragma('cache_size', { simple: true })).toBe(MEMORY_CACHE_PAGES);
    // 2: MEMORY.
    expect(open(':memory:').sqlite.pragma('temp_store', { simple: true })).toBe(2);
    expect(open(join(dir, 'd.db')).sqlite.pragma('temp_store', { simple: true })).toBe(new Database(':memory:').pragma('temp_store', { simple: true }));
    expect(open(join(dir, 'c.db')).sqlite.pragma('cache_size', { simple: true })).toBe(new Database(':memory:').pragma('cache_size', { simple: true }));
  });

  it('opens a file in WAL mode with synchronous = NORMAL and foreign keys enforced', () => {
    const { sqlite } = open(join(dir, 'a.db'));
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(1);
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('has a commit readable from another connection at once, and a failed transaction leaves nothing', () => {
    const path = join(dir, 'b.db');
    const store = open(path);
    store.sqlite.exec('CREATE TABLE kv (key TEXT PRIMARY KEY)');
    const put = (key: string) => store.sqlite.prepare('INSERT INTO kv (key) VALUES (?)').run(key);
    store.transaction(() => put('committed'));
    expect(() =>
      store.transaction(() => {
        put('rolled-back');
        throw new Error('refused half-way');
      }),
    ).toThrow('refused half-way');
    // A second connection stands in for the next process: it sees only what the first committed.
    const other = new Database(path, { readonly: true });
    try {
      const keys = other.prepare("SELECT key FROM kv WHERE key IN ('committed', 'rolled-back')").pluck().all();
      expect(keys).toEqual(['committed']);
    } finally {
      other.close();
    }
  });
});

describe("drizzle's connection", () => {
  it('reaches SQLite through prepare and transaction alone, and reuses a statement by its text', () => {
    const store = openStore();
    const { db, sqlite } = store;
    const prepared: string[] = [];
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((source: string) => (prepared.push(source), prepare(source))) as typeof sqlite.prepare;
    const row = {
      programmeId: DEFAULT_PROGRAMME,
      id: 'c1',
      externalId: 'e1',
      chainId: 'eip155:1:0x1',
      chainIdKey: 'eip155:1:0x1',
      status: 'initiating' as const,
      createdAt: 1,
      updatedAt: 1,
    };
    // Every kind of statement drizzle makes, and its own transaction: a call of any other method of the connection would throw here.
    db.insert(programmes).values({ id: DEFAULT_PROGRAMME, name: 'default', tokenSecret: 's', webhookKey: '', createdAt: 1 }).run();
    db.transaction((tx) => {
      tx.insert(customers).values(row).run();
      tx.update(customers).set({ status: 'active' }).where(eq(customers.id, 'c1')).run();
    });
    const read = () => db.select({ status: customers.status }).from(customers).where(eq(customers.id, 'c1')).get();
    expect(read()).toEqual({ status: 'active' });
    expect(read()).toEqual({ status: 'active' });
    expect(db.all(sql`SELECT id FROM customers`)).toEqual([{ id: 'c1' }]);
    db.delete(customers).where(eq(customers.id, 'c1')).run();
    expect(db.select().from(customers).all()).toEqual([]);
    // The select run twice was prepared once.
    expect(prepared.filter((source) => source.startsWith('select "status"'))).toHaveLength(1);
    store.close();
  });
});

describe('a database that cannot be opened', () => {
  const facts = { path: '/data/sandbox.db', dir: '/data', dirExists: true, uid: 1000, reason: 'unable to open database file' };

  it('names the directory the sandbox may not write to, whose it is, and the fixes', () => {
    const message = openFailureMessage({ ...facts, blocked: { path: '/data', owner: 0 } });
    expect(message).toBe(
      'cannot open the database /data/sandbox.db: /data is not writable by uid 1000 (it belongs to uid 0). Give uid 1000 write access ' +
        '(for a bind mount, on the host: `sudo chown -R 1000 <directory>`), or in Docker use a named volume (`-v card-sandbox-data:/data`) ' +
        'or run as the owner (`docker run --user 0 …`)',
    );
  });

  it('says when the directory does not exist, and otherwise passes on what SQLite said', () => {
    expect(openFailureMessage({ ...facts, dirExists: false })).toBe(
      'cannot open the database /data/sandbox.db: the directory /data does not exist; create it first',
    );
    expect(openFailureMessage(facts)).toBe('cannot open the database /data/sandbox.db: unable to open database file');
  });

  it('is what opening a path in a missing directory throws', () => {
    const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-store-'));
    try {
      expect(() => openStore(join(dir, 'missing', 'sandbox.db'))).toThrow(`the directory ${join(dir, 'missing')} does not exist`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
