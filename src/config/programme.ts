/**
 * Options of the default programme: its environment, clock, randomness, the world it starts from
 * or leaves behind, and the faults it is set with at every start.
 */
import { apiFaults, bool, clock, faults, int, oneOf, strOpt } from './parsers.js';
import { spec, type Env } from './spec.js';

export const PROGRAMME_OPTIONS = [
  spec({
    key: 'env',
    flag: '--env <env>',
    env: 'CARD_SANDBOX_ENV',
    default: 'sandbox' as Env,
    parse: oneOf(['sandbox', 'production'] as const),
    doc: '`sandbox` (testnets, simulator) or `production` (mainnets, no simulator)',
  }),
  spec({
    key: 'clock',
    flag: '--clock <time>',
    env: 'CARD_SANDBOX_CLOCK',
    default: undefined,
    parse: clock,
    defaultText: 'real time',
    doc: 'Start the sandbox clock frozen at an ISO 8601 instant (UTC unless it has an offset), or `now`',
  }),
  spec({
    key: 'randomSeed',
    flag: '--random-seed <n>',
    env: 'CARD_SANDBOX_RANDOM_SEED',
    default: undefined,
    parse: int(0, 2 ** 32 - 1),
    defaultText: 'none',
    doc: "Draw the default programme's ids and randomness, and the ids and credentials of programmes made here, from this seed (with a frozen --clock, runs repeat byte for byte)",
  }),
  spec({
    key: 'seed',
    flag: '--seed <file>',
    env: 'CARD_SANDBOX_SEED',
    default: undefined,
    parse: strOpt,
    defaultText: 'none',
    doc: 'Load a seed world (JSON) at start',
  }),
  spec({
    key: 'importFile',
    flag: '--import <file>',
    env: 'CARD_SANDBOX_IMPORT',
    default: undefined,
    parse: strOpt,
    defaultText: 'none',
    doc: 'Restore the default programme from a snapshot file at start: its world, clock and queues (docs/snapshots.md: The file)',
  }),
  spec({
    key: 'exportOnExit',
    flag: '--export-on-exit <file>',
    env: 'CARD_SANDBOX_EXPORT_ON_EXIT',
    default: undefined,
    parse: strOpt,
    defaultText: 'none',
    doc: "Write the default programme's snapshot file when the sandbox stops (SIGTERM, SIGINT), for --import",
  }),
  spec({
    key: 'webhookFaults',
    flag: '--webhook-faults <faults>',
    env: 'CARD_SANDBOX_WEBHOOK_FAULTS',
    default: undefined,
    parse: faults,
    defaultText: 'none',
    doc: "Faults for the default programme's webhook deliveries, set at every start: `duplicate=0.2,reorder=0.2,delay=2s-30s`, `fail.status=503,fail.times=3`… (docs/webhooks.md: Webhooks → The delivery lab)",
  }),
  spec({
    key: 'apiFaults',
    flag: '--api-faults <json>',
    env: 'CARD_SANDBOX_API_FAULTS',
    default: undefined,
    parse: apiFaults,
    defaultText: 'none',
    doc: 'Faults for the default programme\'s API requests, set at every start: `{"rules":[{"match":{"method":"POST"},"status":503,"times":2}]}` (docs/api-faults.md: The API fault lab)',
  }),
  spec({
    key: 'faultsEverywhere',
    flag: '--faults-everywhere',
    env: 'CARD_SANDBOX_FAULTS_EVERYWHERE',
    default: false,
    parse: bool,
    doc: 'Set --webhook-faults and --api-faults on every programme made, as on the default one: the suites that make a programme per test file meet them too (docs/go-live.md: In CI)',
  }),
] as const;
