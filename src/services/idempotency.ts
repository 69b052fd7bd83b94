/**
 * Idempotency keys (docs/signatures.md: Idempotency). Scope: (API credential, key); kept 1 h of sandbox time,
 * among a programme's newest `KEPT_KEYS` (by count and by the bytes of their answers). The
 * first request claims the key (`in_flight`); its response is stored unless it is a 5xx. A replay
 * of the same method, path and body gets the stored response; anything else under the key is
 * refused (400), and so is a duplicate while the first is still running (409).
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Core } from './core.js';
import { IDEMPOTENCY_TTL_MS, KEPT_KEYS, KEPT_STATUS } from '../domain/idempotency.js';
import { names, once, rowInserter, selectList, sqlLiteral } from '../store/prepared.js';
import { idempotencyKeys } from '../store/schema.js';

export type Claim =
  { kind: 'claimed' } | { kind: 'replay'; status: number; headers: Record<string, string>; body: string } | { kind: 'reused' } | { kind: 'in_flight' };

export function fingerprint(method: string, path: string, body: Uint8Array): string {
  return createHash('sha256').update(`${method} ${path}\n`).update(body).digest('hex');
}

/** Kept answers are trimmed to `kept` after every `trimEvery` keys claimed, so that trimming costs little per request. */
export function createIdempotency(core: Core, { kept = KEPT_KEYS, trimEvery = 500 }: { kept?: { count: number; bytes: number }; trimEvery?: number } = {}) {
  const { store, clock } = core;
  const { db } = store;
  const mine = eq(idempotencyKeys.programmeId, core.programme);
  // A key's look-up and its answer's write run on every request with one: SQLite's own statements,
  // bound by position, the programme written into their text (store/prepared.ts: sqlLiteral).
  const k = names(idempotencyKeys);
  const byKey = `${k.programmeId} = ${sqlLiteral(core.programme)} AND ${k.scope} = ? AND ${k.key} = ?`;
  type Found = Pick<typeof idempotencyKeys.$inferSelect, 'fingerprint' | 'state' | 'status' | 'body' | 'expiresAt'> & { headers: string | null };
  const findQuery = once(() =>
    store.sqlite.prepare<[string, string], Found>(
      `SELECT ${selectList(k, ['fingerprint', 'state', 'status', 'headers', 'body', 'expiresAt'])} FROM ${k.table} WHERE ${byKey}`,
    ),
  );
  const deleteQuery = once(() => store.sqlite.prepare<[string, string]>(`DELETE FROM ${k.table} WHERE ${byKey}`));
  const completeQuery = once(() =>
    store.sqlite.prepare<[number, string, string, string, string]>(
      `UPDATE ${k.table} SET ${k.state} = 'done', ${k.status} = ?, ${k.headers} = ?, ${k.body} = ? WHERE ${byKey}`,
    ),
  );
  const insert = rowInserter(store, idempotencyKeys);
  // A programme's kept answers newest first (by rowid, which follows the order keys were claimed in),
  // each with its bytes; a key in flight has no answer yet and stays. Past the first answer over
  // either bound every older one is over it too, so one range of rowids goes: walking the answers
  // here costs two thirds of what SQLite's window functions over them did.
  const answersQuery = once(() =>
    store.sqlite
      .prepare(
        `SELECT rowid, length(CAST(body AS BLOB)) + length(CAST(headers AS BLOB)) FROM idempotency_keys
         WHERE programme_id = ? AND state = 'done' ORDER BY rowid DESC`,
      )
      .raw(),
  );
  const forgetQuery = once(() => store.sqlite.prepare(`DELETE FROM idempotency_keys WHERE programme_id = ? AND state = 'done' AND rowid <= ?`));
  const trim = () => {
    const answers = answersQuery().all(core.programme) as [number, number | null][];
    let bytes = 0;
    for (let n = 0; n < answers.length; n++) {
      const [rowid, size] = answers[n]!;
      bytes += size ?? 0;
      if (n >= kept.count || bytes > kept.bytes) {
        forgetQuery().run(core.programme, rowid);
        return;
      }
    }
  };
  let claimed = 0;

  // A request that was in flight when the process died never finished: forget its claim.
  db.delete(idempotencyKeys)
    .where(and(mine, eq(idempotencyKeys.state, 'in_flight')))
    .run();

  return {
    claim(scope: string, key: string, print: string): Claim {
      return store.transaction((): Claim => {
        const now = clock.now();
        const row = findQuery().get(scope, key);
        if (row && row.expiresAt > now) {
          if (row.fingerprint !== print) return { kind: 'reused' };
          if (row.state === 'in_flight') return { kind: 'in_flight' };
          return {
            kind: 'replay',
            status: row.status!,
            headers: row.headers === null ? {} : (idempotencyKeys.headers.mapFromDriverValue(row.headers) as Record<string, string>),
            body: row.body ?? '',
          };
        }
        if (row) deleteQuery().run(scope, key);
        insert({ programmeId: core.programme, scope, key, fingerprint: print, state: 'in_flight', createdAt: now, expiresAt: now + IDEMPOTENCY_TTL_MS });
        if (++claimed >= trimEvery) {
          claimed = 0;
          trim();
        }
        return { kind: 'claimed' };
      });
    },

    complete(scope: string, key: string, status: number, headers: Record<string, string>, body: string): void {
      if (status > KEPT_STATUS.max) deleteQuery().run(scope, key);
      else completeQuery().run(status, idempotencyKeys.headers.mapToDriverValue(headers) as string, body, scope, key);
    },

    release(scope: string, key: string): void {
      deleteQuery().run(scope, key);
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
