/**
 * A remembered read is never stale: any insert, update or delete (a reset's delete-all included),
 * a commit by another connection, and a rolled-back transaction each make it read again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonOf, untilChanged } from './read-cache.js';
import { openStore } from './store.js';

describe('untilChanged', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const fn of cleanup.splice(0)) fn();
  });

  /** A table of the test's own, and a write to it. */
  const setUp = (path = ':memory:') => {
    const store = openStore(path);
    cleanup.push(() => store.close());
    store.sqlite.exec('CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT)');
    const put = (key: string, value: string) => store.sqlite.prepare('INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)').run(key, value);
    let reads = 0;
    const keys = untilChanged(store.sqlite, () => {
      reads++;
      return store.sqlite.prepare('SELECT key FROM kv ORDER BY key').pluck().all() as string[];
    });
    return { store, put, keys, reads: () => reads };
  };
  it('reads once while nothing changes, and again after every insert, update and delete', () => {
    const { store, put, keys, reads } = setUp();
    keys();
    keys();
    expect(reads()).toBe(1);
    put('k-a', '1');
    expect(keys()).toContain('k-a');
    expect(reads()).toBe(2);
    put('k-a', '2');
    keys();
    expect(reads()).toBe(3);
    store.sqlite.prepare('DELETE FROM kv').run();
    expect(keys()).toEqual([]);
    expect(reads()).toBe(4);
  });

  it('neither remembers what a transaction saw nor serves a change that was rolled back', () => {
    const { store, put, keys } = setUp();
    expect(() =>
      store.transaction(() => {
        put('k-gone', '1');
        expect(keys()).toContain('k-gone');
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(keys()).not.toContain('k-gone');
  });

  it('reads again after another connection commits to the same file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-read-cache-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const { keys } = setUp(join(dir, 'a.db'));
    expect(keys()).not.toContain('k-other');
    const other = new Database(join(dir, 'a.db'));
    other.prepare("INSERT INTO kv (key, value) VALUES ('k-other', '1')").run();
    other.close();
    expect(keys()).toContain('k-other');
  });
});

describe('jsonOf', () => {
  it('is JSON.stringify, made once for what the cache hands out and again once that changes', () => {
    const store = openStore(':memory:');
    store.sqlite.exec('CREATE TABLE kv (key TEXT PRIMARY KEY)');
    const keys = untilChanged(store.sqlite, () => store.sqlite.prepare('SELECT key FROM kv ORDER BY key').pluck().all() as string[]);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      store.sqlite.prepare('INSERT INTO kv VALUES (?)').run('a');
      const first = jsonOf(keys());
      expect(first.text).toBe('["a"]');
      // The bytes sent for it are its UTF-8, encoded once: the same bytes for every answer.
      expect(Buffer.from(first.bytes!).toString('utf8')).toBe('["a"]');
      expect(jsonOf(keys())).toBe(first);
      expect(stringify).toHaveBeenCalledTimes(1);
      store.sqlite.prepare('INSERT INTO kv VALUES (?)').run('b');
      expect(jsonOf(keys())).toMatchObject({ text: '["a","b"]' });
      expect(stringify).toHaveBeenCalledTimes(2);
      // Anything else is serialised every time: it may change between calls.
      const fresh = { n: 1 };
      expect(jsonOf(fresh)).toEqual({ text: '{"n":1}' });
      fresh.n = 2;
      expect(jsonOf(fresh)).toEqual({ text: '{"n":2}' });
    } finally {
      stringify.mockRestore();
      store.close();
    }
  });
});
