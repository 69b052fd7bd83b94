/**
 * A control route's declaration decides what it meets (control-route.ts, control-plane.ts): the
 * admin token unless `admin: false`, the programme the request names unless `programme: false`,
 * and a JSON body within the control plane's limit unless it reads its own file (`rawBody`),
 * whatever order the routes are added in; the mirrors of /v1 route functions meet all three; a
 * path no route answers still asks for the admin token first.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../domain/errors.js';
import { createTestSandbox } from '../testing/harness.js';
import { answer } from './answer.js';
import { ControlPlane } from './control-plane.js';
import { controlRoute } from './control-route.js';
import type { AppEnv } from './env.js';
import { problemResponse, toSandboxError } from './errors.js';
import { jsonResponse } from './schemas.js';

const ADMIN = 'admin-secret';
const Seen = z.object({ programme: z.string(), bytes: z.number() });
const tags: [string] = ['Test'];

/** A control plane of five routes, added in `order`, behind an app that names the default programme first, as the sandbox's does. */
function controlPlane(order: 'as written' | 'reversed') {
  const sb = createTestSandbox();
  const control = new ControlPlane({ adminToken: ADMIN, programmes: sb.deps.programmes, maxBodyBytes: 64 });
  const seen = (c: Parameters<Parameters<typeof controlRoute>[2]>[0]) => answer(c, { programme: c.get('programme').id, bytes: c.get('rawBody').length });
  const responses = { 200: jsonResponse(Seen) };
  const routes = [
    () => controlRoute(control, { method: 'get', path: '/open', operationId: 'open', summary: 'open', tags, admin: false, programme: false, responses }, seen),
    () => controlRoute(control, { method: 'get', path: '/anywhere', operationId: 'anywhere', summary: 'anywhere', tags, programme: false, responses }, seen),
    () => controlRoute(control, { method: 'get', path: '/programme', operationId: 'programme', summary: 'programme', tags, responses }, seen),
    () =>
      controlRoute(
        control,
        { method: 'post', path: '/json', operationId: 'json', summary: 'json', tags, body: z.object({ text: z.string() }), responses },
        seen,
      ),
    () =>
      controlRoute(
        control,
        { method: 'post', path: '/file', operationId: 'file', summary: 'file', tags, rawBody: { description: 'a file', maxBytes: 256 }, responses },
        seen,
      ),
    () =>
      control.mirror((api) =>
        api.openapi(createRoute({ method: 'get', path: '/mirrored', responses }), (c) =>
          answer(c, { programme: c.get('programme').id, bytes: c.get('rawBody').length }),
        ),
      ),
  ];
  for (const add of order === 'reversed' ? routes.reverse() : routes) add();
  const app = new Hono<AppEnv>();
  app.use((c, next) => (c.set('programme', sb.deps.programmes.default()), next()));
  app.onError((error, c) => problemResponse(c, toSandboxError(error, sb.deps.log, c.get('rawBody'))));
  app.notFound((c) => problemResponse(c, new SandboxError('route_not_found', `no route for ${c.req.method} ${c.req.path}`)));
  app.route('/_sandbox', control);
  const other = sb.deps.programmes.create({ name: 'other' }).id;
  const send = async (method: string, path: string, { admin = true, body }: { admin?: boolean; body?: string } = {}) => {
    const headers: Record<string, string> = {
      ...(admin && { Authorization: `Bearer ${ADMIN}` }),
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
    };
    const res = await app.request(`http://127.0.0.1:4242/_sandbox${path}`, { method, headers, body });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { send, other };
}

/** A JSON body of exactly `bytes` bytes. */
const bodyOf = (bytes: number) => JSON.stringify({ text: 'x'.repeat(bytes - 11) });

describe.each(['as written', 'reversed'] as const)('control routes added %s', (order) => {
  it('ask for the admin token unless declared admin: false', async () => {
    const { send } = controlPlane(order);
    expect(await send('GET', '/open', { admin: false })).toMatchObject({ status: 200, body: { programme: 'default' } });
    for (const path of ['/anywhere', '/programme', '/mirrored']) {
      expect(await send('GET', path, { admin: false })).toMatchObject({ status: 401, body: { code: 'not_authorised' } });
      expect((await send('GET', path)).status).toBe(200);
    }
  });

  it('act on the programme the request names unless declared programme: false, which reads no name at all', async () => {
    const { send, other } = controlPlane(order);
    for (const path of ['/programme', '/mirrored']) {
      expect(await send('GET', `${path}?programme=${other}`)).toMatchObject({ status: 200, body: { programme: other } });
      expect(await send('GET', `${path}?programme=nope`)).toMatchObject({ status: 400, body: { errors: [{ path: 'programme' }] } });
    }
    for (const path of ['/open', '/anywhere']) {
      expect(await send('GET', `${path}?programme=${other}`)).toMatchObject({ status: 200, body: { programme: 'default' } });
      expect(await send('GET', `${path}?programme=nope`)).toMatchObject({ status: 200, body: { programme: 'default' } });
    }
  });

  it("read a JSON body within the control plane's limit, or a file within the route's own", async () => {
    const { send } = controlPlane(order);
    expect(await send('POST', '/json', { body: bodyOf(64) })).toMatchObject({ status: 200, body: { bytes: 64 } });
    expect(await send('POST', '/json', { body: bodyOf(65) })).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
    expect(await send('POST', '/file', { body: bodyOf(256) })).toMatchObject({ status: 200, body: { bytes: 256 } });
    expect(await send('POST', '/file', { body: bodyOf(257) })).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
  });

  it('answer a path no route has with 404 only to the admin token', async () => {
    const { send } = controlPlane(order);
    expect(await send('GET', '/nowhere', { admin: false })).toMatchObject({ status: 401, body: { code: 'not_authorised' } });
    expect(await send('GET', '/nowhere')).toMatchObject({ status: 404, body: { code: 'route_not_found' } });
    // A route's path with a method it does not have is no route either.
    expect(await send('DELETE', '/open', { admin: false })).toMatchObject({ status: 401, body: { code: 'not_authorised' } });
  });
});
