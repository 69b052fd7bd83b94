/**
 * Reads remembered until the database changes, for the lists every GET serialises whole. The
 * data's version is SQLite's total_changes() — every row this connection has inserted, updated or
 * deleted; a change that was rolled back counts too, which only makes the cache forget early —
 * with PRAGMA data_version, which moves when another connection commits to a file database.
 * Inside a transaction nothing is cached or served from the cache: what it sees may yet be rolled
 * back. Only for reads that are functions of the rows alone (not of the clock), and callers must
 * not modify what they get: the same value is handed to every caller until the next change.
 */
import type Database from 'better-sqlite3';

export function untilChanged<T>(sqlite: Database.Database, read: () => T): () => T {
  const changes = sqlite.prepare('SELECT total_changes()').pluck();
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let version: string | undefined;
  let value: T;
  return () => {
    if (sqlite.inTransaction) return read();
    const current = `${changes.get() as number}:${dataVersion.get() as number}`;
    if (current !== version) {
      value = read();
      version = current;
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
