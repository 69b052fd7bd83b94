/**
 * The app's router answers as Hono's own does, whatever it remembers: each path its own route and
 * parameters, the middleware that matches it, and nothing left from another path or method.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { RememberingRouter } from './router.js';

/** The same routes on an app with Hono's router and one with ours; what each answers, as text. */
function apps() {
  const make = (app: Hono) => {
    app.use('*', async (c, next) => {
      await next();
      c.res.headers.append('Seen', 'all');
    });
    app.use('/v1/*', async (c, next) => {
      await next();
      c.res.headers.append('Seen', 'v1');
    });
    app.get('/v1/customers', (c) => c.text('list'));
    app.post('/v1/customers', (c) => c.text('create'));
    app.get('/v1/customers/:id', (c) => c.text(`customer ${c.req.param('id')}`));
    app.get('/v1/customers/:id/cards/:cardId', (c) => c.text(`card ${c.req.param('cardId')} of ${c.req.param('id')}`));
    return async (method: string, path: string) => {
      const res = await app.request(path, { method });
      return `${res.status} ${res.headers.get('Seen')} ${await res.text()}`;
    };
  };
  return { hono: make(new Hono()), ours: make(new Hono({ router: new RememberingRouter() })) };
}

describe('the app router', () => {
  it('answers each request as Hono’s own router does, the first time and again', async () => {
    const { hono, ours } = apps();
    const requests: [string, string][] = [
      ['GET', '/v1/customers'],
      ['POST', '/v1/customers'],
      ['DELETE', '/v1/customers'],
      ['GET', '/v1/customers/a'],
      ['GET', '/v1/customers/b'],
      ['GET', '/v1/customers/a/cards/c'],
      ['GET', '/v1/customers/b/cards/d'],
      ['GET', '/v1/nothing'],
      ['GET', `/v1/customers/${'x'.repeat(300)}`],
    ];
    for (let round = 0; round < 2; round++)
      for (const [method, path] of requests) expect(await ours(method, path), `${method} ${path}`).toBe(await hono(method, path));
    expect(await ours('GET', '/v1/customers/b')).toBe('200 v1, all customer b');
  });

  it('still answers right once it has met more paths than it keeps', async () => {
    const { ours } = apps();
    for (let i = 0; i < 2500; i++) expect(await ours('GET', `/v1/customers/${i % 1200}`)).toBe(`200 v1, all customer ${i % 1200}`);
  });
});
