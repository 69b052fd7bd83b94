/**
 * What an option of `card-sandbox start` is (options.ts lists them): its flag, environment variable,
 * default, meaning and parser — and the values a few of them share with the rest of the sandbox.
 */
import type { Parser } from './parsers.js';

export type Verify = 'strict' | 'warn' | 'off';
export type Env = 'sandbox' | 'production';

export const DEFAULT_API_KEY = '11111111-1111-4111-8111-111111111111';
export const DEFAULT_API_SECRET = 'sandbox-secret';
/** How long a receiver has to answer a webhook attempt in full, unless --webhook-timeout says otherwise. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export interface OptionSpec<K extends string = string, T = unknown> {
  key: K;
  flag: string;
  env: string;
  default: T;
  doc: string;
  /** Reads the raw flag or environment value (switches given as flags arrive as `true`). */
  parse: Parser<T>;
  /** How the default reads in help and in the manual. */
  defaultText?: string;
}

export const spec = <K extends string, T>(s: OptionSpec<K, T>): OptionSpec<K, T> => s;
