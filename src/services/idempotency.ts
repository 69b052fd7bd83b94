/**
 * Idempotency keys (README: Idempotency). Scope: (API credential, key); kept 1 h of sandbox time. The
 * first request claims the key (`in_flight`); its response is stored unless it is a 5xx. A replay
 * of the same method, path and body gets the stored response; anything else under the key is
 * refused (422), and so is a duplicate while the first is still running (409).
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Core } from '../core.js';
import { IDEMPOTENCY_TTL_MS } from '../domain/idempotency.js';
import { idempotencyKeys } from '../store/schema.js';

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'reused' }
  | { kind: 'in_flight' };

export function fingerprint(method: string, path: string, body: Uint8Array): string {
  return createHash('sha256').update(`${method} ${path}\n`).update(body).digest('hex');
}

export function createIdempotency(core: Core) {
  const { store, clock } = core;
  const { db } = store;
  const mine = eq(idempotencyKeys.programmeId, core.programme);
  const where = (scope: string, key: string) => and(mine, eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));

  // A request that was in flight when the process died never finished: forget its claim.
  db.delete(idempotencyKeys).where(and(mine, eq(idempotencyKeys.state, 'in_flight'))).run();

  return {
    claim(scope: string, key: string, print: string): Claim {
      return store.transaction((): Claim => {
        const now = clock.now();
        const row = db.select().from(idempotencyKeys).where(where(scope, key)).get();
        if (row && row.expiresAt > now) {
          if (row.fingerprint !== print) return { kind: 'reused' };
          if (row.state === 'in_flight') return { kind: 'in_flight' };
          return { kind: 'replay', status: row.status!, headers: row.headers ?? {}, body: row.body ?? '' };
        }
        if (row) db.delete(idempotencyKeys).where(where(scope, key)).run();
        db.insert(idempotencyKeys)
          .values({ programmeId: core.programme, scope, key, fingerprint: print, state: 'in_flight', createdAt: now, expiresAt: now + IDEMPOTENCY_TTL_MS })
          .run();
        return { kind: 'claimed' };
      });
    },

    complete(scope: string, key: string, status: number, headers: Record<string, string>, body: string): void {
      if (status >= 500) {
        db.delete(idempotencyKeys).where(where(scope, key)).run();
        return;
      }
      db.update(idempotencyKeys).set({ state: 'done', status, headers, body }).where(where(scope, key)).run();
    },

    release(scope: string, key: string): void {
      db.delete(idempotencyKeys).where(where(scope, key)).run();
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
