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
import { names, once, sqlLiteral } from '../store/prepared.js';
import { idempotencyKeys } from '../store/schema.js';

export type Claim =
  { kind: 'claimed' } | { kind: 'replay'; status: number; headers: Record<string, string>; body: string } | { kind: 'reused' } | { kind: 'in_flight' };

export function fingerprint(method: string, path: string, body: Uint8Array): string {
  return hash('sha256', Buffer.concat([Buffer.from(`${method} ${path}\n`), body]), 'hex');
}

/**
 * Kept answers are trimmed to `kept` after every `trimEvery` keys claimed, so that trimming costs
 * little per request: the service keeps a tally of them, and reads them all only when it has none
 * yet (after a start or a restore) or when the tally's bytes say the bound may have been passed.
 */
export function createIdempotency(core: Core, { kept = KEPT_KEYS, trimEvery = 500 }: { kept?: { count: number; bytes: number }; trimEvery?: number } = {}) {
  const { store, clock } = core;
  const { db } = store;
  const mine = eq(idempotencyKeys.programmeId, core.programme);
  const where = and(mine, eq(idempotencyKeys.scope, sql.placeholder('scope')), eq(idempotencyKeys.key, sql.placeholder('key')));
  const findQuery = once(() => db.select().from(idempotencyKeys).where(where).prepare());
  const deleteQuery = once(() => db.delete(idempotencyKeys).where(where).prepare());
  // A key not seen before (nearly every claim) is claimed by one statement that inserts it unless
  // the key has a row already; only then is the row read, in a transaction.
  const k = names(idempotencyKeys);
  const claimNewQuery = once(() =>
    store.sqlite.prepare<[string, string, string, string, number, number]>(
      `INSERT INTO ${k.table} (${k.programmeId}, ${k.scope}, ${k.key}, ${k.fingerprint}, ${k.state}, ${k.createdAt}, ${k.expiresAt})
       VALUES (?, ?, ?, ?, 'in_flight', ?, ?) ON CONFLICT DO NOTHING`,
    ),
  );
  // A key's answer, written on every request with one: SQLite's own statement, bound by position,
  // the programme written into its text (store/prepared.ts: sqlLiteral), the headers encoded by their column.
  const completeQuery = once(() =>
    store.sqlite.prepare<[number, string, string, string, string]>(
      `UPDATE ${k.table} SET ${k.state} = 'done', ${k.status} = ?, ${k.headers} = ?, ${k.body} = ?
       WHERE ${k.programmeId} = ${sqlLiteral(core.programme)} AND ${k.scope} = ? AND ${k.key} = ?`,
    ),
  );
  // An answer's bytes as the bound counts them: its body's and its headers' (Buffer.byteLength of each in JavaScript).
  const bytesOf = `length(CAST(${k.body} AS BLOB)) + length(CAST(${k.headers} AS BLOB))`;
  // A programme's kept answers newest first (by rowid, which follows the order keys were claimed in),
  // each with its bytes; a key in flight has no answer yet and stays. Past the first answer over
  // either bound every older one is over it too, so one range of rowids goes.
  const answersQuery = once(() =>
    store.sqlite.prepare(`SELECT rowid, ${bytesOf} FROM ${k.table} WHERE ${k.programmeId} = ? AND ${k.state} = 'done' ORDER BY rowid DESC`).raw(),
  );
  // The rowid of the answer after the newest `count`, from the idempotency_answers index alone.
  const pastCountQuery = once(() =>
    store.sqlite.prepare(`SELECT rowid FROM ${k.table} WHERE ${k.programmeId} = ? AND ${k.state} = 'done' ORDER BY rowid DESC LIMIT 1 OFFSET ?`).pluck(),
  );
  const forgetQuery = once(() =>
    store.sqlite.prepare(`DELETE FROM ${k.table} WHERE ${k.programmeId} = ? AND ${k.state} = 'done' AND rowid <= ? RETURNING ${bytesOf}`).pluck(),
  );
  /** Forgets the answers from `rowid` back; returns their bytes. */
  const forget = (rowid: number) => (forgetQuery().all(core.programme, rowid) as (number | null)[]).reduce<number>((sum, size) => sum + (size ?? 0), 0);

  // At least as many answers and bytes as the programme keeps: written answers add to it, forgotten
  // ones take from it; a key dropped elsewhere (expired, released) leaves it above the truth, never
  // below. Unknown (undefined) until the answers are read.
  let tally: { count: number; bytes: number } | undefined;
  /** Reads every kept answer: the tally is then exact. */
  const recount = () => {
    const answers = answersQuery().all(core.programme) as [number, number | null][];
    let bytes = 0;
    for (let n = 0; n < answers.length; n++) {
      const [rowid, size] = answers[n]!;
      if (n >= kept.count || bytes + (size ?? 0) > kept.bytes) {
        forget(rowid);
        tally = { count: n, bytes };
        return;
      }
      bytes += size ?? 0;
    }
    tally = { count: answers.length, bytes };
  };
  let claimed = 0;
  const trim = () => {
    claimed = 0;
    if (tally === undefined) return recount();
    if (tally.count > kept.count) {
      const rowid = pastCountQuery().get(core.programme, kept.count) as number | undefined;
      if (rowid === undefined) return recount();
      tally.count = kept.count;
      tally.bytes -= forget(rowid);
    }
    if (tally.bytes > kept.bytes) recount();
  };

  // A request that was in flight when the process died never finished: forget its claim.
  db.delete(idempotencyKeys)
    .where(and(mine, eq(idempotencyKeys.state, 'in_flight')))
    .run();

  return {
    claim(scope: string, key: string, print: string): Claim {
      const now = clock.now();
      const claimNew = () => claimNewQuery().run(core.programme, scope, key, print, now, now + IDEMPOTENCY_TTL_MS).changes === 1;
      const refused = claimNew()
        ? undefined
        : store.transaction((): Claim | undefined => {
            const row = findQuery().get({ scope, key })!;
            if (row.expiresAt > now) {
              if (row.fingerprint !== print) return { kind: 'reused' };
              if (row.state === 'in_flight') return { kind: 'in_flight' };
              return { kind: 'replay', status: row.status!, headers: row.headers ?? {}, body: row.body ?? '' };
            }
            // Expired: the key is claimed anew.
            deleteQuery().run({ scope, key });
            claimNew();
          });
      if (refused) return refused;
      if (++claimed >= trimEvery) trim();
      return { kind: 'claimed' };
    },

    complete(scope: string, key: string, status: number, headers: Record<string, string>, body: string): void {
      if (status > KEPT_STATUS.max) return void deleteQuery().run({ scope, key });
      const written = idempotencyKeys.headers.mapToDriverValue(headers) as string;
      completeQuery().run(status, written, body, scope, key);
      if (tally) {
        tally.count++;
        tally.bytes += Buffer.byteLength(written) + Buffer.byteLength(body);
      }
    },

    release(scope: string, key: string): void {
      deleteQuery().run({ scope, key });
    },

    /** The programme's rows were replaced (a snapshot restored): its kept answers are read again at the next trim. */
    reload(): void {
      tally = undefined;
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
