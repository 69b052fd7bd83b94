/**
 * What every service is built from: the programme it serves, the store, the programme's clock,
 * ids and randomness, the configuration and the log. Nothing here reads the environment; tests
 * build one with a frozen clock and seeded ids (testing/harness.ts).
 */
import type { Clock } from '../kernel/clock.js';
import type { Config } from '../config/index.js';
import type { Ids, Random } from '../kernel/ids.js';
import type { Log } from '../kernel/log.js';
import type { Store } from '../store/store.js';

export interface Core {
  /** The programme whose rows every query of these services reads and writes, and only those. */
  programme: string;
  store: Store;
  clock: Clock;
  ids: Ids;
  random: Random;
  config: Config;
  log: Log;
}
