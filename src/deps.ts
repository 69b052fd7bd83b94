/**
 * Composition: the core every service receives (core.ts), then the services and the journal
 * built on it (`Deps`). Tests pass a manual
 * clock and seeded ids; nothing is read from the environment here.
 */
import { createClock, parseClockOption, type Clock } from './clock.js';
import type { Core } from './core.js';
import { ConfigError, type Config } from './config.js';
import { cryptoIds, cryptoRandom } from './ids.js';
import { Journal } from './journal.js';
import { jsonLog } from './log.js';
import { createServices, type Services } from './services/index.js';
import { openStore, type Store } from './store/store.js';

export interface Deps extends Core {
  services: Services;
  journal: Journal;
}

/** The clock for a store: frozen with `--clock`, else real time plus the offset the database kept. */
export function clockFor(config: Config, store: Store, wall: () => number = Date.now): Clock {
  if (config.clock !== undefined) {
    const at = parseClockOption(config.clock, wall());
    if (at === undefined) throw new ConfigError(`--clock must be an ISO 8601 instant or "now", got "${config.clock}"`);
    return createClock({ frozenAt: at, wall });
  }
  return createClock({ offset: Number(store.getMeta('clock_offset') ?? '0'), wall });
}

export function buildDeps(config: Config, overrides: Partial<Core> = {}): Deps {
  const store = overrides.store ?? openStore(config.db);
  const core: Core = {
    store,
    clock: overrides.clock ?? clockFor(config, store),
    ids: overrides.ids ?? cryptoIds(),
    random: overrides.random ?? cryptoRandom(),
    config,
    log: overrides.log ?? jsonLog(),
  };
  return { ...core, services: createServices(core), journal: new Journal(config.journalSize) };
}
