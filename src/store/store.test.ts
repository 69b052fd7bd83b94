/**
 * The store's durability settings: a file database runs in WAL mode with synchronous = NORMAL,
 * so a commit is in the file's write-ahead log (the operating system's, not the process's) as
 * soon as `transaction` returns, and a failed transaction leaves nothing. The SIGKILL test in
 * src/reliability/crash.e2e.test.ts shows the same on a running sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './store.js';

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

  it('opens a file in WAL mode with synchronous = NORMAL and foreign keys enforced', () => {
    const { sqlite } = open(join(dir, 'a.db'));
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(1);
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('has a commit readable from another connection at once, and a failed transaction leaves nothing', () => {
    const path = join(dir, 'b.db');
    const store = open(path);
    store.transaction(() => store.setMeta('committed', 'yes'));
    expect(() =>
      store.transaction(() => {
        store.setMeta('rolled-back', 'yes');
        throw new Error('refused half-way');
      }),
    ).toThrow('refused half-way');
    // A second connection stands in for the next process: it sees only what the first committed.
    const other = new Database(path, { readonly: true });
    try {
      const keys = other.prepare("SELECT key FROM meta WHERE key IN ('committed', 'rolled-back')").pluck().all();
      expect(keys).toEqual(['committed']);
    } finally {
      other.close();
    }
  });
});
