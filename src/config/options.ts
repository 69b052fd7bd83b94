/**
 * Every option of `card-sandbox start`: its flag, environment variable, default and meaning, in the
 * order help and the configuration table (docs/configuration.md: Configuration) list them. The
 * configuration's type is read off this list.
 */
import { DEFAULT_HOLD_EXPIRY_MS, holdExpiryProblem } from '../domain/authorisation.js';
import { parseDuration } from '../domain/duration.js';
import { NETWORKS, type Network } from '../domain/pan.js';
import { MAX_ADVANCE_MS } from '../domain/time-travel.js';
import { apiFaults, bool, clock, ConfigError, faults, hosts, int, oneOf, size, str, strOpt, uuid, type AllowedHosts } from './parsers.js';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET, spec, type Env, type OptionSpec, type Verify } from './spec.js';

export const OPTIONS = [
  spec({
    key: 'port',
    flag: '--port <port>',
    env: 'CARD_SANDBOX_PORT',
    default: 4242,
    parse: int(0, 65535),
    doc: 'TCP port to listen on (0 picks a free one)',
  }),
  spec({
    key: 'host',
    flag: '--host <host>',
    env: 'CARD_SANDBOX_HOST',
    default: '127.0.0.1',
    parse: str,
    doc: 'Address to bind; the API and the control plane bind together',
  }),
  spec({
    key: 'allowedHosts',
    flag: '--allowed-hosts <hosts>',
    env: 'CARD_SANDBOX_ALLOWED_HOSTS',
    default: [] as AllowedHosts,
    parse: hosts,
    defaultText: 'none',
    doc: 'Host names to answer besides localhost, *.localhost and loopback addresses (and, bound to another address, IP addresses and single-label names): `ci.example.test,.svc.local`, or `all` (docs/reliability.md: Reliability and security)',
  }),
  spec({
    key: 'db',
    flag: '--db <file>',
    env: 'CARD_SANDBOX_DB',
    default: ':memory:',
    parse: str,
    doc: 'SQLite database file; `:memory:` keeps nothing after exit',
  }),
  spec({
    key: 'env',
    flag: '--env <env>',
    env: 'CARD_SANDBOX_ENV',
    default: 'sandbox' as Env,
    parse: oneOf(['sandbox', 'production'] as const),
    doc: '`sandbox` (testnets, simulator) or `production` (mainnets, no simulator)',
  }),
  spec({
    key: 'verify',
    flag: '--verify <mode>',
    env: 'CARD_SANDBOX_VERIFY',
    default: 'warn' as Verify,
    parse: oneOf(['strict', 'warn', 'off'] as const),
    doc: 'Request signature, digest and idempotency-key checks: `strict` refuses, `warn` reports, `off` skips',
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
    key: 'apiKey',
    flag: '--api-key <uuid>',
    env: 'CARD_SANDBOX_API_KEY',
    default: undefined,
    parse: uuid,
    defaultText: DEFAULT_API_KEY,
    doc: 'API key accepted by POST /v1/auth/token',
  }),
  spec({
    key: 'apiSecret',
    flag: '--api-secret <secret>',
    env: 'CARD_SANDBOX_API_SECRET',
    default: undefined,
    parse: strOpt,
    defaultText: DEFAULT_API_SECRET,
    doc: 'API secret for that key',
  }),
  spec({
    key: 'signingKey',
    flag: '--signing-key <file>',
    env: 'CARD_SANDBOX_SIGNING_KEY',
    default: undefined,
    parse: strOpt,
    defaultText: 'none',
    doc: 'PEM file of a P-384 public key to register for request signatures at start',
  }),
  spec({
    key: 'signingKeyId',
    flag: '--signing-key-id <uuid>',
    env: 'CARD_SANDBOX_SIGNING_KEY_ID',
    default: undefined,
    parse: uuid,
    defaultText: 'derived from the key',
    doc: 'keyid under which --signing-key is registered',
  }),
  spec({
    key: 'tokenTtlMs',
    flag: '--token-ttl <duration>',
    env: 'CARD_SANDBOX_TOKEN_TTL',
    default: 3_600_000,
    defaultText: '1h',
    doc: 'Lifetime of access tokens in sandbox time (`1h`, `PT30M`)',
    parse: (raw) => {
      const ms = parseDuration(raw);
      // A token expires on the sandbox clock: a lifetime past its range of time would make an expiry no date holds.
      if (ms === undefined || ms < 1000 || ms > MAX_ADVANCE_MS) throw new ConfigError(`must be a duration of at least 1s and at most 100 years, got "${raw}"`);
      return ms;
    },
  }),
  spec({
    key: 'webhookKey',
    flag: '--webhook-key <file>',
    env: 'CARD_SANDBOX_WEBHOOK_KEY',
    default: undefined,
    parse: strOpt,
    defaultText: 'made on first start',
    doc: 'PEM file of the P-384 private key that signs webhooks',
  }),
  spec({
    key: 'physicalCards',
    flag: '--physical-cards',
    env: 'CARD_SANDBOX_PHYSICAL_CARDS',
    default: false,
    parse: bool,
    doc: 'Allow physical cards (then `shippingAddress` is required)',
  }),
  spec({
    key: 'cardholderName',
    flag: '--cardholder-name <name>',
    env: 'CARD_SANDBOX_CARDHOLDER_NAME',
    default: 'SANDBOX CARDHOLDER',
    parse: str,
    doc: 'Name printed on issued cards',
  }),
  spec({
    key: 'network',
    flag: '--network <network>',
    env: 'CARD_SANDBOX_NETWORK',
    default: 'visa' as Network,
    parse: oneOf(NETWORKS),
    doc: 'Network of issued cards',
  }),
  spec({
    key: 'holdExpiryMs',
    flag: '--hold-expiry <duration>',
    env: 'CARD_SANDBOX_HOLD_EXPIRY',
    default: DEFAULT_HOLD_EXPIRY_MS,
    defaultText: '7d',
    doc: 'How long a pending authorisation (a hold) waits in sandbox time to be captured before it is released, in programmes made without their own `holdExpiry` (docs/money-path.md: Holds that expire)',
    parse: (raw) => {
      const ms = parseDuration(raw);
      const problem = holdExpiryProblem(ms);
      if (problem) throw new ConfigError(`${problem}, got "${raw}"`);
      return ms!;
    },
  }),
  spec({
    key: 'journalSize',
    flag: '--journal-size <n>',
    env: 'CARD_SANDBOX_JOURNAL_SIZE',
    default: 1000,
    parse: int(0, 1_000_000),
    doc: 'How many API requests GET /_sandbox/requests keeps, for each programme',
  }),
  spec({
    key: 'eventRetention',
    flag: '--event-retention <n>',
    env: 'CARD_SANDBOX_EVENT_RETENTION',
    default: 10_000,
    parse: int(1, 10_000_000),
    doc: 'How many events each programme keeps, with their deliveries and attempts; older ones are deleted, except those with a delivery still pending',
  }),
  spec({
    key: 'adminToken',
    flag: '--admin-token <token>',
    env: 'CARD_SANDBOX_ADMIN_TOKEN',
    default: undefined,
    parse: strOpt,
    defaultText: 'none',
    doc: 'Require `Authorization: Bearer <token>` on /_sandbox/*',
  }),
  spec({
    key: 'allowLinkLocalCallbacks',
    flag: '--allow-link-local-callbacks',
    env: 'CARD_SANDBOX_ALLOW_LINK_LOCAL_CALLBACKS',
    default: false,
    parse: bool,
    doc: 'Deliver webhooks to link-local addresses too (169.254.0.0/16, fe80::/10, where cloud metadata services answer), refused otherwise (docs/reliability.md: Open to a network)',
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
    key: 'maxProgrammes',
    flag: '--max-programmes <n>',
    env: 'CARD_SANDBOX_MAX_PROGRAMMES',
    default: 1000,
    parse: int(1, 1_000_000),
    doc: 'How many programmes the sandbox holds, the default one included',
  }),
  spec({
    key: 'maxSnapshots',
    flag: '--max-snapshots <n>',
    env: 'CARD_SANDBOX_MAX_SNAPSHOTS',
    default: 100,
    parse: int(0, 1_000_000),
    doc: 'How many snapshots the sandbox keeps, over all its programmes',
  }),
  spec({
    key: 'maxSnapshotBytes',
    flag: '--max-snapshot-bytes <size>',
    env: 'CARD_SANDBOX_MAX_SNAPSHOT_BYTES',
    default: 1_073_741_824,
    parse: size,
    defaultText: '1GiB',
    doc: 'How many bytes of snapshot files the sandbox keeps, over all its programmes: `512MiB`, `2GiB` or bytes',
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
    key: 'jsonLogs',
    flag: '--json',
    env: 'CARD_SANDBOX_JSON_LOGS',
    default: false,
    parse: bool,
    doc: 'Log one JSON object per line instead of readable lines, the ready line first',
  }),
] as const;

type Option = (typeof OPTIONS)[number];
/** The configuration: a value for every option, by its key. */
export type Config = { [O in Option as O['key']]: O extends OptionSpec<string, infer T> ? T : never };
