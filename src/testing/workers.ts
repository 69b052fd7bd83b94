/**
 * How many test files run at once, in `npm test` and `npm run test:packaging` alike: four, or one
 * per core on more. Most of an end-to-end file's time is spent waiting on a child process, a socket
 * or a timer, not computing (vitest's default is one fewer than the cores: a single file at a time
 * on a 2-core machine). Not shipped.
 */
import { availableParallelism } from 'node:os';

export const TEST_WORKERS = Math.max(4, availableParallelism());
