/**
 * The programmes in memory: each one's core, scheduler, services and request journal, built from
 * its row when it is first used and kept; the schedulers run while the sandbox does. A programme's
 * scheduler is built here, on the sandbox's one ticker, and handed to its services, which add
 * their due work to it.
 */
import { eq } from 'drizzle-orm';
import type { Config } from '../config/index.js';
import type { Core } from '../services/core.js';
import { fail } from '../domain/errors.js';
import { DEFAULT_PROGRAMME } from '../domain/programme.js';
import { idsOf, type Ids, type Random } from '../kernel/ids.js';
import { Journal } from './journal.js';
import type { Log } from '../kernel/log.js';
import { createScheduler, type Scheduler } from '../kernel/scheduler.js';
import { createServices, type Services, type Shared } from '../services/index.js';
import { credentials, deliveries, jobs, programmes } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { ProgrammeRow, Settings } from './settings.js';

export interface Programme {
  id: string;
  core: Core;
  /** Runs its due work (jobs, webhook deliveries), in real time or as its clock is moved; saving and restoring it run exclusively of that work. */
  scheduler: Scheduler;
  services: Services;
  journal: Journal;
  /**
   * Where its requests' ids come from: API requests and control-plane requests each from a stream
   * of their own, so that polling the control plane never changes the ids the API answers with
   * (docs/programmes.md: Deterministic runs).
   */
  requestIds: { api: Ids; control: Ids };
  /** The streams those ids are drawn from, for a snapshot to say where they stand. */
  requestStreams: { api: Random; control: Random };
  /** The seed it draws from, if it has one: a fork of its snapshot draws from it too. */
  seed: number | undefined;
  /** While a large restore writes its world in steps (snapshots/put-back.ts): settles when it is done; its requests wait for it. */
  restoring?: Promise<void> | undefined;
}

export interface RegistryDeps {
  store: Store;
  config: Config;
  log: Log;
  shared: Shared;
  settings: Settings;
}

export function createRegistry({ store, config, log, shared, settings }: RegistryDeps) {
  const { db } = store;
  const loaded = new Map<string, Programme>();
  let running = false;

  const rowOf = (id: string): ProgrammeRow | undefined => db.select().from(programmes).where(eq(programmes.id, id)).get();

  const keepClock = (id: string) => (clock: Core['clock']) => {
    db.update(programmes)
      .set({ clockOffset: clock.offset(), clockFrozenAt: clock.frozen ? clock.now() : null })
      .where(eq(programmes.id, id))
      .run();
  };

  const build = (row: ProgrammeRow): Programme => {
    const { clock, seed, random, ids, signer } = settings.of(row);
    const core: Core = { programme: row.id, store, clock, ids, random, config, log, tracing: shared.tracing };
    const scheduler = createScheduler(clock, log, shared.ticker);
    const services = createServices(core, shared, { scheduler, signer, keepClock: keepClock(row.id) });
    const requestStreams = { api: random.fork('api requests'), control: random.fork('control requests') };
    const requestIds = { api: idsOf(requestStreams.api), control: idsOf(requestStreams.control) };
    const programme = { id: row.id, core, scheduler, services, journal: new Journal(config.journalSize), requestIds, requestStreams, seed };
    loaded.set(row.id, programme);
    if (running) {
      scheduler.start();
      scheduler.kick();
    }
    return programme;
  };

  const registry = {
    rowOf,

    /** The programme, or undefined when there is none with this id. */
    find(id: string): Programme | undefined {
      const cached = loaded.get(id);
      if (cached) return cached;
      const row = rowOf(id);
      return row && build(row);
    },

    /** The programme, or its 404. */
    get: (id: string): Programme => registry.find(id) ?? fail('programme_not_found', `no programme with id ${id}`),

    default: (): Programme => registry.get(DEFAULT_PROGRAMME),

    /** The programme holding `apiKey`, if any: API keys are unique across programmes. */
    byApiKey(apiKey: string): Programme | undefined {
      const owner = db.select({ programmeId: credentials.programmeId }).from(credentials).where(eq(credentials.apiKey, apiKey)).get();
      return owner && registry.find(owner.programmeId);
    },

    /** Its clock: the running one if it is in memory, else the one its row says. */
    clockOf: (row: ProgrammeRow) => loaded.get(row.id)?.core.clock ?? settings.clockOf(row),

    /** Stops a programme's work and drops it from memory (its rows are the caller's). */
    unload(id: string): void {
      const programme = loaded.get(id);
      programme?.scheduler.stop();
      programme?.services.webhooks.stop();
      loaded.delete(id);
    },

    /** The programmes in memory now. */
    loaded: (): Programme[] => [...loaded.values()],

    /**
     * Runs due work in real time from now on: every programme in memory, and those with work
     * waiting in the database (retries and jobs resume after a restart).
     */
    start(): void {
      running = true;
      const waiting = db
        .selectDistinct({ id: jobs.programmeId })
        .from(jobs)
        .union(db.selectDistinct({ id: deliveries.programmeId }).from(deliveries).where(eq(deliveries.status, 'pending')))
        .all();
      for (const { id } of waiting) registry.find(id);
      for (const { scheduler } of loaded.values()) {
        scheduler.start();
        scheduler.kick();
      }
    },

    stop(): void {
      running = false;
      for (const { scheduler } of loaded.values()) scheduler.stop();
    },
  };
  return registry;
}

export type Registry = ReturnType<typeof createRegistry>;
