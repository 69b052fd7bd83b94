/**
 * A large restore's write (docs/snapshots.md: While things are under way): the new world is written
 * STEP rows a transaction, other programmes answered between, and becomes the programme's all at
 * once. It is written under a staging programme of its own (STAGING_PREFIX) — or straight into the
 * programme when its world is empty — while the old world stays as it was; one short transaction
 * then makes it the programme's (`commit`, which settles the programme's own row and memory, and
 * the `restores` row's phase). Only then are the old rows deleted and the new ones copied in, step
 * by step. A failure before that deletes what was written; a stop (a kill, a crash) is undone or
 * finished when the database is next opened (`recover`), so that the programme is its old world or
 * its new one, never a mix of them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { fail } from '../domain/errors.js';
import { stagingIdOf } from '../domain/programme.js';
import type { Log } from '../kernel/log.js';
import { programmes, restores } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { TableRows } from './file.js';
import { atOnce, inSteps, type worldRows } from './rows.js';

/** How long a restore whose new world is the programme's waits before it tries again to finish (a disk full, say). */
const RETRY_MS = 1000;

export function stagedWrites(store: Store, rows: ReturnType<typeof worldRows>) {
  const { db } = store;
  const restoreOf = (programme: string) => db.select().from(restores).where(eq(restores.programmeId, programme)).get();

  /** Drops the `restores` row and the staging programme, with what is left of its rows. */
  const done = (programme: string, stagedAs: string) =>
    store.transaction(() => {
      if (stagedAs !== programme) db.delete(programmes).where(eq(programmes.id, stagedAs)).run();
      db.delete(restores).where(eq(restores.programmeId, programme)).run();
    });

  /** Deletes what a restore that never became the programme's world wrote. */
  function* undoing(programme: string, stagedAs: string): Generator<void> {
    yield* rows.clearing(stagedAs);
    done(programme, stagedAs);
  }

  /** Makes the staged world the programme's rows: its old ones deleted, the new ones copied in, the staging programme dropped. */
  function* finishing(programme: string): Generator<void> {
    const restore = restoreOf(programme);
    if (restore === undefined) return;
    if (restore.phase === 'committed') {
      // Whatever a stop left of the copy goes with the old rows: the staged world is whole until `copied`.
      yield* rows.clearing(programme);
      yield* rows.copying(restore.stagedAs, programme);
      db.update(restores).set({ phase: 'copied' }).where(eq(restores.programmeId, programme)).run();
    }
    yield* rows.clearing(restore.stagedAs);
    done(programme, restore.stagedAs);
  }

  return {
    /**
     * Writes `tables` as the programme's world, a step at a time; `commit` runs in the transaction
     * that makes it the programme's. If anything fails before that, what was written is deleted and
     * the error thrown: the programme is as it was. After it, finishing is tried again until it
     * is done (or the database is closed: the next open finishes it).
     */
    async write(programme: string, tables: TableRows, commit: () => void, log: Log): Promise<void> {
      const stagedAs = rows.empty(programme) ? programme : stagingIdOf(programme);
      store.transaction(() => {
        if (stagedAs !== programme) db.insert(programmes).values({ id: stagedAs, name: stagedAs, tokenSecret: '', webhookKey: '', createdAt: 0 }).run();
        db.insert(restores).values({ programmeId: programme, stagedAs, phase: 'writing' }).run();
      });
      try {
        await inSteps(rows.adding(stagedAs, tables));
        store.transaction(() => {
          // Deleted meanwhile, with its `restores` row.
          if (restoreOf(programme) === undefined) fail('programme_not_found', `programme ${programme} was deleted during its restore`);
          commit();
          if (stagedAs === programme) done(programme, stagedAs);
          else db.update(restores).set({ phase: 'committed' }).where(eq(restores.programmeId, programme)).run();
        });
      } catch (error) {
        await inSteps(undoing(programme, stagedAs)).catch((again: unknown) =>
          log.error('snapshot restore: deleting what it wrote failed; the next start deletes it', { programme, error: String(again) }),
        );
        throw error;
      }
      for (;;)
        try {
          return await inSteps(finishing(programme));
        } catch (error) {
          if (!store.sqlite.open) throw error;
          log.error(`snapshot restore: finishing failed; trying again in ${RETRY_MS} ms`, { programme, error: String(error) });
          await sleep(RETRY_MS, undefined, { ref: false });
        }
    },

    /** What a stop left when the database is opened: a restore not yet the programme's world undone, one that was finished. */
    recover(): { undone: string[]; finished: string[] } {
      const undone: string[] = [];
      const finished: string[] = [];
      for (const { programmeId, stagedAs, phase } of db.select().from(restores).all()) {
        if (phase === 'writing') atOnce(undoing(programmeId, stagedAs));
        else atOnce(finishing(programmeId));
        (phase === 'writing' ? undone : finished).push(programmeId);
      }
      return { undone, finished };
    },
  };
}
