/**
 * Programmes (docs/programmes.md: Parallel test suites): isolated sandboxes in one process, each with its own
 * credentials, keys, world and clock. Every sandbox has the default one; others are made on demand.
 */
import { UUID_PATTERN } from './formats.js';

export const DEFAULT_PROGRAMME = 'default';

/** A programme id in a query or header: the default programme's, or a UUID. */
export const PROGRAMME_ID = new RegExp(`^(${DEFAULT_PROGRAMME}|${UUID_PATTERN})$`);
