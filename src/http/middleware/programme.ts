/**
 * Which programme a control-plane request acts on (docs/programmes.md: Parallel test suites): the one named by
 * `?programme=<id>` or the `Sandbox-Programme` header, else the default programme.
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
    const id = query ?? header ?? DEFAULT_PROGRAMME;
    if (!PROGRAMME_ID.test(id)) {
      const path = query !== undefined ? 'programme' : 'Sandbox-Programme';
      fail('invalid_request', `${path} must be "default" or a programme id (a UUID), got ${echo(id)}`, [{ path, message: 'must be "default" or a UUID' }]);
    }
    c.set('programme', programmes.get(id.toLowerCase()));
    return next();
  };
}
