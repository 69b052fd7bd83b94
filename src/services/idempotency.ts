/**
 * Idempotency keys (docs/signatures.md: Idempotency). Scope: (API credential, key); kept 1 h of sandbox time,
 * among a programme's newest `KEPT_KEYS` (by count and by the bytes of their answers). The
 * first request claims the key (`in_flight`); its response is stored unless it is a 5xx. A replay
 * of the same method, path and body gets the stored response; anything else under the key is
 * refused (400), and so is a duplicate while the first is still running (409).
 */
import { hash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Core } from './core.js';
import { IDEMPOTENCY_TTL_MS, KEPT_KEYS, KEPT_STATUS } from '../domain/idempotency.js';
import { names, once, rowInserter } from '../store/prepared.js';
import { idempotencyKeys } from '../store/schema.js';

export type Claim =
  { kind: 'claimed' } | { kind: 'replay'; status: number; headers: Record<string, string>; body: string } | { kind: 'reused' } | { kind: 'in_flight' };

export function fingerprint(method: string, path: string, body: Uint8Array): string {
  return hash('sha256', Buffer.concat([Buffer.from(`${method} ${path}\n`), body]), 'hex');
}

/** Kept answers are trimmed to `kept` after every `trimEvery` keys claimed, so that trimming costs little per request. */
export function createIdempotency(core: Core, { kept = KEPT_KEYS, trimEvery = 500 }: { kept?: { count: number; bytes: number }; trimEvery?: number } = {}) {
  const { store, clock } = core;
  const { db } = store;
  const mine = eq(idempotencyKeys.programmeId, core.programme);
  const where = and(mine, eq(idempotencyKeys.scope, sql.placeholder('scope')), eq(idempotencyKeys.key, sql.placeholder('key')));
  const findQuery = once(() => db.select().from(idempotencyKeys).where(where).prepare());
  const deleteQuery = once(() => db.delete(idempotencyKeys).where(where).prepare());
  // drizzle types no placeholders in set(): they go in as SQL, the headers encoded by their column.
  const completeQuery = once(() =>
    db
      .update(idempotencyKeys)
      .set({ state: 'done', status: sql`${sql.placeholder('status')}`, headers: sql`${sql.placeholder('headers')}`, body: sql`${sql.placeholder('body')}` })
      .where(where)
      .prepare(),
  );
  const insert = rowInserter(store, idempotencyKeys);
  // A key not seen before (nearly every claim) is claimed by one statement that inserts it unless
  // the key has a row already; only then is the row read, in a transaction.
  const k = names(idempotencyKeys);
  const claimNewQuery = once(() =>
    store.sqlite.prepare<[string, string, string, string, number, number]>(
      `INSERT INTO ${k.table} (${k.programmeId}, ${k.scope}, ${k.key}, ${k.fingerprint}, ${k.state}, ${k.createdAt}, ${k.expiresAt})
       VALUES (?, ?, ?, ?, 'in_flight', ?, ?) ON CONFLICT DO NOTHING`,
    ),
  );
  // Newest first by rowid, which follows the order keys were claimed in; a key in flight has no answer yet and stays.
  const trimQuery = once(() =>
    store.sqlite.prepare(
      `DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM (
         SELECT rowid, row_number() OVER newest AS n, sum(length(CAST(body AS BLOB)) + length(CAST(headers AS BLOB))) OVER newest AS bytes
         FROM idempotency_keys WHERE programme_id = ? AND state = 'done' WINDOW newest AS (ORDER BY rowid DESC)
       ) WHERE n > ? OR bytes > ?)`,
    ),
  );
  let claimed = 0;
  const trim = () => {
    claimed = 0;
    trimQuery().run(core.programme, kept.count, kept.bytes);
  };

  // A request that was in flight when the process died never finished: forget its claim.
  db.delete(idempotencyKeys)
    .where(and(mine, eq(idempotencyKeys.state, 'in_flight')))
    .run();

  return {
    claim(scope: string, key: string, print: string): Claim {
      const now = clock.now();
      if (claimNewQuery().run(core.programme, scope, key, print, now, now + IDEMPOTENCY_TTL_MS).changes === 1) {
        if (++claimed >= trimEvery) trim();
        return { kind: 'claimed' };
      }
      return store.transaction((): Claim => {
        const row = findQuery().get({ scope, key });
        if (row && row.expiresAt > now) {
          if (row.fingerprint !== print) return { kind: 'reused' };
          if (row.state === 'in_flight') return { kind: 'in_flight' };
          return { kind: 'replay', status: row.status!, headers: row.headers ?? {}, body: row.body ?? '' };
        }
        if (row) deleteQuery().run({ scope, key });
        insert({ programmeId: core.programme, scope, key, fingerprint: print, state: 'in_flight', createdAt: now, expiresAt: now + IDEMPOTENCY_TTL_MS });
        if (++claimed >= trimEvery) trim();
        return { kind: 'claimed' };
      });
    },

    complete(scope: string, key: string, status: number, headers: Record<string, string>, body: string): void {
      if (status > KEPT_STATUS.max) deleteQuery().run({ scope, key });
      else completeQuery().run({ scope, key, status, headers: idempotencyKeys.headers.mapToDriverValue(headers), body });
    },

    release(scope: string, key: string): void {
      deleteQuery().run({ scope, key });
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
