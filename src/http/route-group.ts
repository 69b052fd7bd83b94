/**
 * A group of routes that meet the same middleware: /v1's token route, the rest of /auth and every
 * other operation (api-groups.ts), and the control plane's mirrors of /v1 route functions
 * (control-route.ts). Each route declared on the group with `openapi()` carries the group's
 * middleware itself, ahead of its validators and handler, so what a route meets is decided where
 * its group is made: not by the order routes and `use()` calls are added (Hono runs handlers in
 * the order they were added, and a route that answers ends the chain), and not by the other
 * groups mounted beside it (a group's `use('*')` would match every path of the app it is mounted
 * on). Mounting a group copies its routes and their declarations into the app it is mounted on.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { Api, AppEnv } from './env.js';
import { defaultHook } from './errors.js';

export function routeGroup(middleware: MiddlewareHandler<AppEnv>[]): Api {
  const group = new OpenAPIHono<AppEnv>({ defaultHook });
  const declare = group.openapi;
  group.openapi = ((route, handler, hook) =>
    declare({ ...route, middleware: [...middleware, ...[route.middleware ?? []].flat()] }, handler, hook)) as typeof declare;
  return group;
}
