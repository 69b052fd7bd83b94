/**
 * A restore's write (docs/snapshots.md: While things are under way): a programme put back as a
 * snapshot's state holds it, all or nothing — the rows of its world, its own row (faults, pause,
 * fees, rates, clock) and what it keeps in memory (clock, random streams, API fault lab, journal).
 *
 * Most restores write in one transaction. A large one — IN_TURNS_FROM rows or more to delete and
 * write — is written in steps with a turn of the event loop between, so that other programmes are
 * answered meanwhile (staged.ts: the new world becomes the programme's in one short transaction,
 * and a stop at any point leaves the old world or the new one); the programme's own requests wait
 * until it is done (`Programme.restoring`).
 */
import { eq } from 'drizzle-orm';
import { fail } from '../domain/errors.js';
import type { Programme } from '../programmes/index.js';
import { programmes as programmeRows } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { ProgrammeState, RestoredState } from './file.js';
import { atOnce, inSteps, type Plan, type worldRows } from './rows.js';
import { stagedWrites } from './staged.js';

/** A restore of this many rows or more, between the programme's world and the snapshot's, is a large one. */
export const IN_TURNS_FROM = 10_000;

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
  services.idempotency.reload();
  journal.restore(memory.journal);
};

export function putBack(store: Store, rows: ReturnType<typeof worldRows>, staged: ReturnType<typeof stagedWrites>) {
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

  /**
   * A large restore (IN_TURNS_FROM rows or more between the world and the snapshot's), the
   * programme's requests waiting meanwhile: what it changes is found a page at a time; a small
   * change is written in one transaction, a large one in steps (staged.ts).
   */
  const large = async (programme: Programme, state: RestoredState) => {
    let done!: () => void;
    programme.restoring = new Promise<void>((resolve) => (done = resolve));
    try {
      const plan = await inSteps(rows.planning(programme.id, state.rows));
      if (plan.work < IN_TURNS_FROM) inOneGo(programme, state, plan);
      else await staged.write(programme.id, state.rows, () => settle(programme, state), programme.core.log);
    } finally {
      programme.restoring = undefined;
      done();
    }
  };

  /** Puts `state`'s rows in place of the programme's as `plan` (found now without one) says, and settles it, in one transaction. */
  const inOneGo = (programme: Programme, state: RestoredState, plan?: Plan) =>
    store.transaction(() => {
      // Parents first: what deleting a parent takes with it is gone before its children are
      // compared; a child may refer to a parent deleted and written again meanwhile.
      sqlite.pragma('defer_foreign_keys = ON');
      rows.replace(programme.id, state.rows, plan ?? atOnce(rows.planning(programme.id, state.rows)));
      settle(programme, state);
    });

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
        if (size + rows.count(id) < IN_TURNS_FROM) inOneGo(programme, state);
        else await large(programme, state);
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
