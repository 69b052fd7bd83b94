/**
 * A route declared on a group meets the group's middleware and no other group's, whichever group
 * is declared or mounted first, and its declaration reaches the app's document; a path no route
 * has meets none of it (route-group.ts).
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { answer } from './answer.js';
import type { AppEnv } from './env.js';
import { routeGroup } from './route-group.js';
import { jsonResponse } from './schemas.js';

function app(order: 'a first' | 'b first') {
  const met: string[] = [];
  const mark =
    (name: string): MiddlewareHandler<AppEnv> =>
    async (_c, next) => {
      met.push(name);
      await next();
    };
  const groups = { a: routeGroup([mark('a')]), b: routeGroup([mark('b1'), mark('b2')]) };
  const names = order === 'a first' ? (['a', 'b'] as const) : (['b', 'a'] as const);
  for (const name of names) {
    groups[name].openapi(
      createRoute({ method: 'get', path: `/${name}`, operationId: name, responses: { 200: jsonResponse(z.object({ met: z.array(z.string()) })) } }),
      (c) => answer(c, { met: met.splice(0) }),
    );
  }
  const api = new OpenAPIHono<AppEnv>();
  for (const name of names) api.route('/', groups[name]);
  return { api, met };
}

describe.each(['a first', 'b first'] as const)('route groups, %s', (order) => {
  it("run each route's own group's middleware, in the group's order, and no other's", async () => {
    const { api } = app(order);
    expect(await (await api.request('/a')).json()).toEqual({ met: ['a'] });
    expect(await (await api.request('/b')).json()).toEqual({ met: ['b1', 'b2'] });
    expect(await (await api.request('/a')).json()).toEqual({ met: ['a'] });
  });

  it('leave a path no route has alone', async () => {
    const { api, met } = app(order);
    expect((await api.request('/c')).status).toBe(404);
    expect(met).toEqual([]);
  });

  it("declare every route in the app's document", () => {
    const { api } = app(order);
    expect(Object.keys(api.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } }).paths ?? {}).sort()).toEqual(['/a', '/b']);
  });
});
