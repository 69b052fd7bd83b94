/**
 * Reads remembered until the database changes, for the lists every GET serialises whole. The
 * data's version is SQLite's total_changes() — every row this connection has inserted, updated or
 * deleted; a change that was rolled back counts too, which only makes the cache forget early —
 * with PRAGMA data_version, which moves when another connection commits to a file database (an
 * in-memory one has no other connection).
 * Inside a transaction nothing is cached or served from the cache: what it sees may yet be rolled
 * back. Only for reads that are functions of the rows alone (not of the clock), and callers must
 * not modify what they get: the same value is handed to every caller until the next change.
 */
import type Database from 'better-sqlite3';

export function untilChanged<T>(sqlite: Database.Database, read: () => T): () => T {
  const changes = sqlite.prepare('SELECT total_changes()').pluck();
  // No other connection can reach an in-memory database: only this one's changes count there.
  const dataVersion = sqlite.memory ? undefined : sqlite.prepare('PRAGMA data_version').pluck();
  let changed: number | undefined;
  let version: number | undefined;
  let value: T;
  return () => {
    if (sqlite.inTransaction) return read();
    const nowChanged = changes.get() as number;
    const nowVersion = dataVersion?.get() as number | undefined;
    if (nowChanged !== changed || nowVersion !== version) {
      value = read();
      changed = nowChanged;
      version = nowVersion;
      if (typeof value === 'object' && value !== null) handedOut.set(value, undefined);
    }
    return value;
  };
}

/** A value's JSON: its text, and for a value the cache hands out, the UTF-8 bytes sent for it. */
export interface Json {
  text: string;
  bytes?: Uint8Array<ArrayBuffer>;
}

/** What the cache hands out, with its JSON once it has been asked for. */
const handedOut = new WeakMap<object, Required<Json> | undefined>();

/**
 * `JSON.stringify(value)`, made and encoded once for a value the cache hands out again and again:
 * its bytes go to the socket as they are, where a text would be encoded again for every answer.
 */
export function jsonOf(value: unknown): Json {
  if (typeof value !== 'object' || value === null || !handedOut.has(value)) return { text: JSON.stringify(value) };
  let json = handedOut.get(value);
  if (json === undefined) {
    const text = JSON.stringify(value);
    handedOut.set(value, (json = { text, bytes: Buffer.from(text) }));
  }
  return json;
}
