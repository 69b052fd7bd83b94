/**
 * Bearer-token authentication for /v1 (docs/signatures.md: Tokens and credentials): every operation but POST
 * /auth/token, whose routes carry it (http/api-groups.ts). The token names the programme it was issued for,
 * whose services then serve the request (docs/programmes.md: Parallel test suites). A path that
 * matches no route never meets it, and gets its 404.
 */
import { fail } from '../../domain/errors.js';
import { echo } from '../../domain/echo.js';
import type { Programmes } from '../../programmes/index.js';
import { programmeOfToken } from '../../services/auth.js';
import type { Stage } from '../pipeline.js';

export function authenticate(programmes: Programmes): Stage {
  const run: Stage['run'] = (c, next) => {
    const authorization = c.req.header('Authorization');
    const id = programmeOfToken(authorization);
    // An unreadable token is refused by the default programme's checks, which say why.
    const programme =
      id === undefined
        ? programmes.default()
        : (programmes.find(id) ?? fail('not_authorised', `the token was issued for programme ${echo(id)}, which no longer exists (or never did)`));
    c.set('programme', programme);
    c.set('apiKey', programme.services.auth.authenticate(authorization));
    // A large restore under way: its world is answered once it is whole (docs/snapshots.md).
    return programme.restoring ? programme.restoring.then(next) : next();
  };
  return { run };
}
