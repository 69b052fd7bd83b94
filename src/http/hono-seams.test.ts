import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { keepBodyText } from './hono-seams.js';

describe('the seam into Hono', () => {
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
});
