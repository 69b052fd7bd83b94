import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { answerJsonWith, keepBodyText } from './hono-seams.js';

describe('the seams into Hono', () => {
  it('keepBodyText: c.req.json() answers from the text handed over, not from the request, which was read already', async () => {
    const app = new Hono();
    app.post('/', async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      keepBodyText(c, new TextEncoder().encode('{"kept":true}'));
      return c.json({ parsed: await c.req.json(), text: await c.req.text(), read: bytes.length });
    });
    const res = await app.request('/', { method: 'POST', body: '{"sent":1}', headers: { 'Content-Type': 'application/json' } });
    expect(await res.json()).toEqual({ parsed: { kept: true }, text: '{"kept":true}', read: 10 });
  });

  it("answerJsonWith: c.json answers with the serialiser's text, its status and headers, as JSON", async () => {
    const app = new Hono();
    app.get('/', (c) => {
      answerJsonWith(c, (value) => `${JSON.stringify(value)} `);
      return c.json({ a: 1 }, 201, { 'X-Extra': 'yes' });
    });
    const res = await app.request('/');
    expect(res.status).toBe(201);
    expect(res.headers.get('Content-Type')).toBe('application/json');
    expect(res.headers.get('X-Extra')).toBe('yes');
    expect(await res.text()).toBe('{"a":1} ');
  });
});
