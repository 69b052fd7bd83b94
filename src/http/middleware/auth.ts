/**
 * Bearer-token authentication for /v1 (docs/signatures.md: Tokens and credentials): every operation but POST
 * /auth/token, which app.ts adds before it. The token names the programme it was issued for,
 * whose services then serve the request (docs/programmes.md: Parallel test suites). Requests for paths that
 * match no route fall through to the 404 instead.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { fail } from '../../domain/errors.js';
import type { Programmes } from '../../programmes/index.js';
import { programmeOfToken } from '../../services/auth.js';
import type { AppEnv } from '../env.js';

export const hasRoute = (c: Parameters<MiddlewareHandler>[0]) => matchedRoutes(c).some((r) => r.method !== 'ALL');

export function authenticate(programmes: Programmes): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!hasRoute(c)) return next();
    const authorization = c.req.header('Authorization');
    const id = programmeOfToken(authorization);
    // An unreadable token is refused by the default programme's checks, which say why.
    const programme =
      id === undefined
        ? programmes.default()
        : (programmes.find(id) ?? fail('not_authorised', `the token was issued for programme ${id}, which no longer exists`));
    c.set('programme', programme);
    c.set('apiKey', programme.services.auth.authenticate(authorization));
    return next();
  };
}
