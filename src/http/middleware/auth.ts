/**
 * Bearer-token authentication for /v1 (README: Tokens and credentials): every operation but POST
 * /auth/token, which app.ts adds before it. Requests for paths that match no route fall through
 * to the 404 instead.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Auth } from '../../services/auth.js';
import type { AppEnv } from '../env.js';

export const hasRoute = (c: Parameters<MiddlewareHandler>[0]) => matchedRoutes(c).some((r) => r.method !== 'ALL');

export function authenticate(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!hasRoute(c)) return next();
    c.set('apiKey', auth.authenticate(c.req.header('Authorization')));
    return next();
  };
}
