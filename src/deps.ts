/**
 * Composition: what programmes share (the store, the ticker, the pool of webhook connections, the
 * engine and the money tables), the programmes themselves (programmes/), their snapshots
 * (snapshots.ts), and the default programme's core, services and journal, which a sandbox used
 * without programmes works with.
 * Tests pass a manual clock and seeded ids for the default programme; nothing is read from the
 * environment here.
 */
import type { Core } from './services/core.js';
import type { Config } from './config/index.js';
import { cryptoRandom, idsOf, seededRandom } from './kernel/ids.js';
import type { Journal } from './programmes/journal.js';
import { jsonLog } from './kernel/log.js';
import { createProgrammes, type Programmes } from './programmes/index.js';
import { createTicker } from './kernel/scheduler.js';
import { createSnapshots, type Snapshots } from './snapshots/snapshots.js';
import { createEngine, loadMoneyTables } from './services/engine.js';
import type { Services, Shared } from './services/index.js';
import { openStore } from './store/store.js';
import { MAX_IN_FLIGHT } from './webhooks/dispatcher.js';
import { createSendPool } from './webhooks/send-pool.js';

export interface Deps extends Core {
  programmes: Programmes;
  snapshots: Snapshots;
  shared: Shared;
  /** The default programme's. */
  services: Services;
  journal: Journal;
}

export function buildDeps(config: Config, overrides: Partial<Core> = {}): Deps {
  const store = overrides.store ?? openStore(config.db);
  const log = overrides.log ?? jsonLog();
  // With --random-seed, the programmes made in this sandbox get the same ids and credentials run after run.
  const random = config.randomSeed !== undefined ? seededRandom(config.randomSeed).fork('programmes') : cryptoRandom();
  const shared: Shared = {
    ticker: createTicker(),
    pool: createSendPool(MAX_IN_FLIGHT),
    engine: createEngine(config.env),
    money: loadMoneyTables(),
    tracing: overrides.tracing,
  };
  const programmes = createProgrammes(
    { store, config, log, shared, ids: overrides.ids ?? idsOf(random), random },
    { clock: overrides.clock, ids: overrides.ids, random: overrides.random },
  );
  const snapshots = createSnapshots({ store, config, programmes, ids: idsOf(random.fork('snapshots')), log });
  const { core, services, journal } = programmes.ensureDefault();
  return { ...core, programmes, snapshots, shared, services, journal };
}
