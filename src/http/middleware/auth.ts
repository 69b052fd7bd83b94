/**
 * Bearer-token authentication for /v1 (CONTRACT §4): every operation but POST /auth/token.
 * Requests for paths that match no route fall through to the 404 instead.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Auth } from '../../services/auth.js';
import type { AppEnv } from '../env.js';

export const hasRoute = (c: Parameters<MiddlewareHandler>[0]) => matchedRoutes(c).some((r) => r.method !== 'ALL');

export function authenticate(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!hasRoute(c) || (c.req.method === 'POST' && c.req.path === '/v1/auth/token')) return next();
    c.set('apiKey', auth.authenticate(c.req.header('Authorization')));
    return next();
  };
}
