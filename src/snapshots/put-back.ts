/**
 * A restore's write (docs/snapshots.md: While things are under way): a programme put back as a
 * snapshot's state holds it, all or nothing — the rows of its world, its own row (faults, pause,
 * fees, rates, clock) and what it keeps in memory (clock, random streams, API fault lab, journal).
 *
 * Most restores write in one transaction. A large world written into an empty one (after a reset,
 * a fork, `--import`, a new programme) in a database in memory is written IN_TURNS_PER rows at a
 * time with a turn of the event loop between, so that other programmes are answered meanwhile;
 * the programme's own requests wait until it is done (`Programme.restoring`), and a failure at any
 * point deletes what was written, leaving the world empty as it was. A database file keeps the one
 * transaction, so that a crash in the middle of a restore leaves the programme as it was.
 */
import { setImmediate as turn } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { fail } from '../domain/errors.js';
import type { Programme } from '../programmes/index.js';
import { programmes as programmeRows } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { ProgrammeState, RestoredState } from './file.js';
import type { worldRows } from './rows.js';

/** A world of this many rows or more, written into an empty one, is written in turns. */
export const IN_TURNS_FROM = 10_000;
const IN_TURNS_PER = 2_000;

/** What a programme keeps in memory, which a restore replaces with its world: a snapshot's state but its rows and faults. */
type Memory = Pick<ProgrammeState, 'clock' | 'random' | 'journal'> & { apiFaults: RestoredState['apiFaults'] };

/** What the programme keeps in memory now, to be put back if a restore fails. */
const memoryOf = ({ core, services, journal, requestStreams }: Programme): Memory => ({
  clock: { now: core.clock.now(), frozen: core.clock.frozen },
  random: { main: core.random.state(), apiRequests: requestStreams.api.state(), controlRequests: requestStreams.control.state() },
  apiFaults: { shown: services.apiFaults.kept(), draws: services.apiFaults.draws() },
  journal: journal.list(),
});

/** Puts what the programme keeps in memory as `memory` says; nothing here can fail on values a file was checked for. */
const applyMemory = ({ core, services, journal, requestStreams }: Programme, memory: Memory) => {
  core.clock.set(memory.clock);
  core.random.restore(memory.random.main);
  requestStreams.api.restore(memory.random.apiRequests);
  requestStreams.control.restore(memory.random.controlRequests);
  services.apiFaults.restore(memory.apiFaults.shown, memory.apiFaults.draws);
  services.lab.reload();
  services.fees.reload();
  services.rates.reload();
  journal.restore(memory.journal);
};

export function putBack(store: Store, rows: ReturnType<typeof worldRows>) {
  const { db, sqlite } = store;

  /** The programme's own row and what it keeps in memory, as `state` holds them; call inside a transaction. */
  const settle = (programme: Programme, state: RestoredState) => {
    const { now, frozen } = state.clock;
    db.update(programmeRows)
      .set({
        webhookFaults: state.webhookFaults ?? null,
        webhooksPaused: state.webhooksPaused,
        fees: state.fees ?? null,
        rates: state.rates && Object.keys(state.rates).length ? state.rates : null,
        clockFrozenAt: frozen ? now : null,
        clockOffset: now - programme.core.clock.wall(),
      })
      .where(eq(programmeRows.id, programme.id))
      .run();
    applyMemory(programme, state);
  };

  /** Writes the world in turns, the programme's requests waiting meanwhile; on failure, deletes what it wrote. */
  const inTurns = async (programme: Programme, state: RestoredState) => {
    let done!: () => void;
    programme.restoring = new Promise<void>((resolve) => (done = resolve));
    try {
      await rows.add(programme.id, state.rows, IN_TURNS_PER, turn);
      store.transaction(() => settle(programme, state));
    } catch (error) {
      store.transaction(() => rows.clear(programme.id));
      throw error;
    } finally {
      programme.restoring = undefined;
      done();
    }
  };

  /**
   * Puts the programme back as `state` holds it, all or nothing: if anything fails, the rows are
   * as they were and the memory is put back as it was. What was scheduled since is gone. Attempts
   * in flight are cut short at once and recorded nowhere, and an advance under way stops where it
   * got to: neither keeps the restore waiting on a receiver that does not answer.
   */
  return (programme: Programme, state: RestoredState): Promise<void> => {
    const { id, core, scheduler, services } = programme;
    services.webhooks.cutShort();
    scheduler.interrupt();
    return scheduler.exclusively(async () => {
      // Before any attempt in flight can record its outcome in the world it no longer belongs to.
      const abandoned = services.webhooks.abandon();
      const before = memoryOf(programme);
      const size = Object.values(state.rows).reduce((n, table) => n + table.length, 0);
      try {
        if (store.path === ':memory:' && size >= IN_TURNS_FROM && rows.empty(id)) await inTurns(programme, state);
        else
          store.transaction(() => {
            // Parents first: what deleting a parent takes with it is gone before its children are
            // compared; a child may refer to a parent deleted and written again meanwhile.
            sqlite.pragma('defer_foreign_keys = ON');
            rows.replace(id, state.rows);
            settle(programme, state);
          });
      } catch (error) {
        try {
          applyMemory(programme, before);
        } catch (again) {
          core.log.error('snapshot restore: putting the memory back failed', { error: String(again) });
        }
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'))
          fail('invalid_snapshot', `the snapshot's rows do not fit together (${(error as Error).message}); nothing was restored`);
        throw error;
      }
      await abandoned;
    });
  };
}
