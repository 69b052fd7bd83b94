/**
 * Every option of `card-sandbox start`, by area: its flag, environment variable, default and meaning,
 * in the order help and the configuration table (docs/configuration.md: Configuration) list them.
 * An option is declared in its area's file; the configuration's type is read off this list.
 */
import { ACCESS_OPTIONS } from './access.js';
import { ISSUING_OPTIONS } from './issuing.js';
import { LIMIT_OPTIONS } from './limits.js';
import { PROGRAMME_OPTIONS } from './programme.js';
import { SERVER_OPTIONS } from './server.js';
import type { OptionSpec } from './spec.js';

export const OPTIONS = [...SERVER_OPTIONS, ...ACCESS_OPTIONS, ...PROGRAMME_OPTIONS, ...ISSUING_OPTIONS, ...LIMIT_OPTIONS] as const;

type Option = (typeof OPTIONS)[number];
/** The configuration: a value for every option, by its key. */
export type Config = { [O in Option as O['key']]: O extends OptionSpec<string, infer T> ? T : never };
