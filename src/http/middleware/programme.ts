/**
 * Which programme a control-plane request acts on (docs/programmes.md: Parallel test suites): the one named by
 * `?programme=<id>` or the `Sandbox-Programme` header, else the default programme; both, naming
 * different programmes, are refused.
 */
import type { MiddlewareHandler } from 'hono';
import { echo } from '../../domain/echo.js';
import { fail } from '../../domain/errors.js';
import { DEFAULT_PROGRAMME, PROGRAMME_ID } from '../../domain/programme.js';
import type { Programmes } from '../../programmes/index.js';
import type { AppEnv } from '../env.js';

export function selectProgramme(programmes: Programmes): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const query = c.req.query('programme');
    const header = c.req.header('Sandbox-Programme');
    for (const [path, named] of [
      ['programme', query],
      ['Sandbox-Programme', header],
    ] as const)
      if (named !== undefined && !PROGRAMME_ID.test(named))
        fail('invalid_request', `${path} must be "default" or a programme id (a UUID), got ${echo(named)}`, [{ path, message: 'must be "default" or a UUID' }]);
    // Two names for two programmes: which one was meant is the caller's to say, never a guess.
    if (query !== undefined && header !== undefined && query.toLowerCase() !== header.toLowerCase())
      fail('invalid_request', `?programme=${query} and the Sandbox-Programme header (${header}) name different programmes; send one, or the same in both`, [
        { path: 'programme', message: 'names another programme than the Sandbox-Programme header' },
      ]);
    const id = query ?? header ?? DEFAULT_PROGRAMME;
    const programme = programmes.get(id.toLowerCase());
    c.set('programme', programme);
    // A large restore under way: its world is answered once it is whole (docs/snapshots.md).
    if (programme.restoring) await programme.restoring;
    return next();
  };
}
