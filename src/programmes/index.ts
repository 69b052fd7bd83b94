/**
 * Programmes (docs/programmes.md: Parallel test suites): many isolated sandboxes in one process and
 * one database. Each has its own row (token secret, clock, webhook key), its own credentials and
 * world, and, once used, its own services, clock, ids and request journal. They share the store,
 * the configuration, the log and what services/index.ts names `Shared`. Isolation holds because
 * every service is built for one programme and reads and writes only its rows (core.ts); deleting
 * a programme cascades to everything it owns.
 *
 * Three parts: what each programme is built from (settings.ts), the programmes in memory
 * (registry.ts), and the control plane's operations on them (operations.ts).
 */
import type { Config } from '../config/index.js';
import type { Ids, Random } from '../kernel/ids.js';
import type { Log } from '../kernel/log.js';
import { createEndedRecords } from '../services/report.js';
import type { Shared } from '../services/index.js';
import type { Store } from '../store/store.js';
import { createProgrammeOperations } from './operations.js';
import { createRegistry } from './registry.js';
import { programmeSettings, type DefaultOverrides } from './settings.js';

export type { Programme } from './registry.js';
export type { DefaultOverrides } from './settings.js';
export type { CreatedProgramme, NewProgramme, ProgrammeSummary } from '../wire/programmes.js';

export interface ProgrammesDeps {
  store: Store;
  config: Config;
  log: Log;
  shared: Shared;
  /** Ids of programmes and their credentials. */
  ids: Ids;
  /** Their API secrets. */
  random: Random;
  wall?: () => number;
}

export function createProgrammes({ store, config, log, shared, ids, random, wall = Date.now }: ProgrammesDeps, defaults: DefaultOverrides = {}) {
  const settings = programmeSettings({ store, config, defaults, wall });
  const registry = createRegistry({ store, config, log, shared, settings });
  // What the go-live report keeps of deleted programmes, for a report over a whole test run.
  const ended = createEndedRecords();
  return { ...registry, ...createProgrammeOperations({ store, config, registry, ids, random, wall, ended }), ended };
}

export type Programmes = ReturnType<typeof createProgrammes>;
