/**
 * How each option's raw text (a flag or an environment variable) is read: each parser says what
 * is wrong with a value, and resolveConfig (index.ts) prefixes the flag or variable it came from.
 */
import { parseDuration } from '../domain/duration.js';
import { readClockOption } from '../domain/instant.js';
import { UUID_PATTERN } from '../domain/formats.js';
import { parseApiFaultsJson, type ApiFaultRules } from '../domain/api-faults.js';
import { parseFaultsSpec, type Faults } from '../domain/webhook-faults.js';

export class ConfigError extends Error {}

export type Parser<T> = (raw: string) => T;

/** `--allowed-hosts`: names (a leading dot allows its subdomains too), or every name. */
export type AllowedHosts = readonly string[] | 'all';

export const int =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) throw new ConfigError(`must be an integer from ${min} to ${max}, got "${raw}"`);
    return n;
  };
export const oneOf =
  <T extends string>(values: readonly T[]): Parser<T> =>
  (raw) => {
    if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`must be one of ${values.join(', ')}, got "${raw}"`);
    return raw as T;
  };
/** A size in bytes: `1073741824`, or with a binary unit, `512MiB`, `1GiB`, `64KiB`. */
export const size: Parser<number> = (raw) => {
  const m = /^(\d+)\s*(B|KiB|MiB|GiB)?$/i.exec(raw.trim());
  const n = m ? Number(m[1]) * { b: 1, kib: 1024, mib: 1_048_576, gib: 1_073_741_824 }[(m[2] ?? 'b').toLowerCase() as 'b']! : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new ConfigError(`must be a size such as 512MiB, 1GiB or a number of bytes, got "${raw}"`);
  return n;
};
/** A duration (`30s`, `2m`, `PT1H`) in milliseconds, within `minMs` and `maxMs` (`range` says them in words). */
export const duration =
  (minMs: number, maxMs: number, range: string): Parser<number> =>
  (raw) => {
    const ms = parseDuration(raw);
    if (ms === undefined || ms < minMs || ms > maxMs) throw new ConfigError(`must be a duration of ${range}, got "${raw}"`);
    return ms;
  };
export const str: Parser<string> = (raw) => raw;
export const strOpt: Parser<string | undefined> = (raw) => raw;
const UUID = new RegExp(`^${UUID_PATTERN}$`);
export const uuid: Parser<string | undefined> = (raw) => {
  if (!UUID.test(raw)) throw new ConfigError(`must be a UUID, got "${raw}"`);
  return raw;
};
export const clock: Parser<string | undefined> = (raw) => {
  const read = readClockOption(raw, 0);
  if ('problem' in read) throw new ConfigError(`${read.problem}, got "${raw}"`);
  return raw;
};
export const faults: Parser<Faults | undefined> = (raw) => {
  const parsed = parseFaultsSpec(raw);
  if ('errors' in parsed) throw new ConfigError(`${parsed.errors.map((e) => `${e.path} ${e.message}`).join('; ')} (in "${raw}")`);
  return parsed.faults;
};
export const apiFaults: Parser<ApiFaultRules | undefined> = (raw) => {
  const parsed = parseApiFaultsJson(raw);
  if ('errors' in parsed) throw new ConfigError(`${parsed.errors.map((e) => `${e.path} ${e.message}`).join('; ')} (in '${raw}')`);
  return parsed.faults;
};
export const hosts: Parser<AllowedHosts> = (raw) => {
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
export const bool: Parser<boolean> = (raw) => {
  const value = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`must be true or false, got "${raw}"`);
};
