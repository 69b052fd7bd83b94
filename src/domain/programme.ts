/**
 * Programmes (docs/programmes.md: Parallel test suites): isolated sandboxes in one process, each with its own
 * credentials, keys, world and clock. Every sandbox has the default one; others are made on demand.
 */
import { UUID_PATTERN } from './formats.js';

export const DEFAULT_PROGRAMME = 'default';

/** A programme id in a query or header: the default programme's, or a UUID. */
export const PROGRAMME_ID = new RegExp(`^(${DEFAULT_PROGRAMME}|${UUID_PATTERN})$`);

/**
 * The staging programme under which a large restore writes a programme's new world before it is
 * the programme's (snapshots/staged.ts): not an id a request can name, never listed or counted.
 */
export const STAGING_PREFIX = 'restoring:';
export const stagingIdOf = (programme: string) => `${STAGING_PREFIX}${programme}`;
