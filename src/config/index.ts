/**
 * The configuration of `card-sandbox start`: every option (options.ts, declared by area) resolved from its flag,
 * its `CARD_SANDBOX_*` environment variable or its default, in that order of precedence. Nothing
 * here reads the environment at import time.
 */
import { ConfigError } from './parsers.js';
import { OPTIONS, type Config } from './options.js';

export { ConfigError, type AllowedHosts } from './parsers.js';
export { OPTIONS, type Config } from './options.js';
export { ATTEMPT_TIMEOUT_MS, DEFAULT_API_KEY, DEFAULT_API_SECRET, type Env, type Verify } from './spec.js';

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
