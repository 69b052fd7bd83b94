import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { answer } from './answer.js';
import type { AppEnv } from './env.js';

describe('answer', () => {
  it('answers with the JSON text it keeps, its status and headers, as JSON unless the headers say otherwise', async () => {
    const app = new Hono<AppEnv>();
    const kept: (string | undefined)[] = [];
    app.use(async (c, next) => {
      await next();
      kept.push(c.get('answer'));
    });
    app.get('/', (c) => answer(c, { a: 1 }, 201, { 'X-Extra': 'yes' }));
    app.get('/problem', (c) => answer(c, { b: 2 }, 400, { 'Content-Type': 'application/problem+json' }));
    const res = await app.request('/');
    expect(res.status).toBe(201);
    expect(res.headers.get('Content-Type')).toBe('application/json');
    expect(res.headers.get('X-Extra')).toBe('yes');
    expect(await res.text()).toBe('{"a":1}');
    const problem = await app.request('/problem');
    expect([problem.status, problem.headers.get('Content-Type'), await problem.text()]).toEqual([400, 'application/problem+json', '{"b":2}']);
    expect(kept).toEqual(['{"a":1}', '{"b":2}']);
  });
});
