/**
 * Every option of `card-sandbox start`: its flag, environment variable, default and meaning.
 * Precedence: flag > `CARD_SANDBOX_*` environment variable > default. The configuration table
 * (docs/configuration.md: Configuration) is this list. Nothing here reads the environment at import time.
 */
import { parseClockOption } from './domain/instant.js';
import { parseDuration } from './domain/duration.js';
import { UUID_PATTERN } from './domain/formats.js';
import { NETWORKS, type Network } from './domain/pan.js';
import { parseApiFaultsJson, type ApiFaultRules } from './domain/api-faults.js';
import { parseFaultsSpec, type Faults } from './domain/webhook-faults.js';

export type Verify = 'strict' | 'warn' | 'off';
export type Env = 'sandbox' | 'production';
/** `--allowed-hosts`: names (a leading dot allows its subdomains too), or every name. */
export type AllowedHosts = readonly string[] | 'all';

export interface Config {
  port: number;
  host: string;
  allowedHosts: AllowedHosts;
  db: string;
  env: Env;
  verify: Verify;
  clock: string | undefined;
  apiKey: string | undefined;
  apiSecret: string | undefined;
  signingKey: string | undefined;
  signingKeyId: string | undefined;
  tokenTtlMs: number;
  webhookKey: string | undefined;
  physicalCards: boolean;
  cardholderName: string;
  network: Network;
  journalSize: number;
  eventRetention: number;
  adminToken: string | undefined;
  seed: string | undefined;
  importFile: string | undefined;
  exportOnExit: string | undefined;
  maxProgrammes: number;
  maxSnapshots: number;
  randomSeed: number | undefined;
  webhookFaults: Faults | undefined;
  apiFaults: ApiFaultRules | undefined;
  jsonLogs: boolean;
}

export const DEFAULT_API_KEY = '11111111-1111-4111-8111-111111111111';
export const DEFAULT_API_SECRET = 'sandbox-secret';

type Parser<T> = (raw: string) => T;
export interface OptionSpec<K extends keyof Config = keyof Config> {
  key: K;
  flag: string;
  env: string;
  default: Config[K];
  doc: string;
  /** Reads the raw flag or environment value (switches given as flags arrive as `true`). */
  parse: Parser<Config[K]>;
  /** How the default reads in help and in the manual. */
  defaultText?: string;
}

class ConfigError extends Error {}
export { ConfigError };

// Parsers say what is wrong with a value; resolveConfig prefixes the flag or variable it came from.
const int =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) throw new ConfigError(`must be an integer from ${min} to ${max}, got "${raw}"`);
    return n;
  };
const oneOf =
  <T extends string>(values: readonly T[]): Parser<T> =>
  (raw) => {
    if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`must be one of ${values.join(', ')}, got "${raw}"`);
    return raw as T;
  };
const str: Parser<string> = (raw) => raw;
const strOpt: Parser<string | undefined> = (raw) => raw;
const UUID = new RegExp(`^${UUID_PATTERN}$`);
const uuid: Parser<string | undefined> = (raw) => {
  if (!UUID.test(raw)) throw new ConfigError(`must be a UUID, got "${raw}"`);
  return raw;
};
const clock: Parser<string | undefined> = (raw) => {
  if (parseClockOption(raw, 0) === undefined) throw new ConfigError(`must be an ISO 8601 date or date-time (e.g. 2026-01-01T09:00:00Z) or "now", got "${raw}"`);
  return raw;
};
const faults: Parser<Faults | undefined> = (raw) => {
  const parsed = parseFaultsSpec(raw);
  if ('errors' in parsed) throw new ConfigError(`${parsed.errors.map((e) => `${e.path} ${e.message}`).join('; ')} (in "${raw}")`);
  return parsed.faults;
};
const apiFaults: Parser<ApiFaultRules | undefined> = (raw) => {
  const parsed = parseApiFaultsJson(raw);
  if ('errors' in parsed) throw new ConfigError(`${parsed.errors.map((e) => `${e.path} ${e.message}`).join('; ')} (in '${raw}')`);
  return parsed.faults;
};
const hosts: Parser<AllowedHosts> = (raw) => {
  const names = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  if (names.includes('all')) return 'all';
  const bad = names.find((h) => !/^\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*$|^\[?[0-9a-f:.]+\]?$/.test(h));
  if (bad !== undefined || names.length === 0)
    throw new ConfigError(`must be host names separated by commas (a leading dot allows subdomains: .example.test), or all; got "${raw}"`);
  return names.map((h) => h.replace(/^\[|\]$/g, ''));
};
const bool: Parser<boolean> = (raw) => {
  const value = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`must be true or false, got "${raw}"`);
};

function spec<K extends keyof Config>(s: OptionSpec<K>): OptionSpec<K> {
  return s;
}

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
      if (ms === undefined || ms < 1000) throw new ConfigError(`must be a duration of at least 1s, got "${raw}"`);
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
] as const satisfies readonly OptionSpec[];

/** The defaults, for tests and embedding. */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  const config = Object.fromEntries(OPTIONS.map((o) => [o.key, o.default])) as unknown as Config;
  return { ...config, ...overrides };
}

/**
 * Resolves the configuration: `flags` holds what was given on the command line (raw strings, or
 * `true` for switches), `env` the process environment. Throws ConfigError naming the bad option.
 */
export function resolveConfig(flags: Partial<Record<keyof Config, string | boolean>>, env: Record<string, string | undefined>): Config {
  const config = defaultConfig();
  const target = config as unknown as Record<string, unknown>;
  for (const option of OPTIONS) {
    const flag = flags[option.key];
    const raw = flag !== undefined ? flag : env[option.env];
    if (raw === undefined || raw === '') continue;
    try {
      target[option.key] = typeof raw === 'boolean' ? raw : option.parse(raw);
    } catch (error) {
      // Name where a bad value came from: the flag, or the environment variable standing in for it.
      const source = flag !== undefined ? option.flag.split(' ')[0] : option.env;
      if (error instanceof ConfigError) throw new ConfigError(`${source} ${error.message}`);
      throw error;
    }
  }
  if ((config.apiKey === undefined) !== (config.apiSecret === undefined)) {
    throw new ConfigError('--api-key and --api-secret go together');
  }
  return config;
}
