import { describe, expect, it } from 'vitest';
import { createControlClient, UnreachableError, type SseMessage } from './control.js';
import { ApiError } from './operations.js';

const answering = (body: string, status: number, contentType: string) => () =>
  Promise.resolve(new Response(body, { status, headers: { 'Content-Type': contentType } }));

describe('createControlClient', () => {
  it('sends JSON with the admin token and the programme to the route the operation names, and parses the answer', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const client = createControlClient({
      baseUrl: 'http://h:1/',
      adminToken: 't0k',
      programme: 'p1',
      fetch: (url, init) => {
        seen.push({ url, init: init! });
        return Promise.resolve(Response.json({ now: 'x', ran: 2 }));
      },
    });
    expect(await client.advanceClock({ by: '1h' })).toEqual({ now: 'x', ran: 2 });
    expect(seen[0]!.url).toBe('http://h:1/_sandbox/clock/advance');
    expect(seen[0]!.init.method).toBe('POST');
    expect(seen[0]!.init.headers).toEqual({ Authorization: 'Bearer t0k', 'Sandbox-Programme': 'p1', 'Content-Type': 'application/json' });
    expect(seen[0]!.init.body).toBe('{"by":"1h"}');
  });

  it("puts path parameters and the query in the URL, and a programme given to the call before the client's", async () => {
    const seen: { url: string; headers: unknown }[] = [];
    let programme = 'first';
    const client = createControlClient({
      baseUrl: 'http://h:1',
      programme: () => programme,
      fetch: (url, init) => (seen.push({ url, headers: init!.headers }), Promise.resolve(Response.json([]))),
    });
    await client.listEvents({ type: 'card.updated', limit: 5, entityId: undefined });
    programme = 'second';
    await client.getEvent('a/b', { programme: 'third' });
    await client.getWorld();
    expect(seen.map((s) => s.url)).toEqual([
      'http://h:1/_sandbox/events?type=card.updated&limit=5',
      'http://h:1/_sandbox/events/a%2Fb',
      'http://h:1/_sandbox/world',
    ]);
    expect(seen.map((s) => (s.headers as Record<string, string>)['Sandbox-Programme'])).toEqual(['first', 'third', 'second']);
  });

  it('resolves to undefined for an empty answer (202 from the simulator)', async () => {
    const client = createControlClient({ baseUrl: 'http://h:1', fetch: () => Promise.resolve(new Response(null, { status: 202 })) });
    expect(await client.simulateIssueCard('x')).toBeUndefined();
  });

  it('throws ApiError carrying the problem', async () => {
    const problem = {
      type: 'about:blank',
      title: 'Customer not found',
      status: 404,
      detail: 'no customer with id x',
      code: 'customer_not_found',
      requestId: 'r',
    };
    const client = createControlClient({ baseUrl: 'http://h:1', fetch: answering(JSON.stringify(problem), 404, 'application/problem+json') });
    const error = await client.simulateVerifyCustomer('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ operation: 'simulateVerifyCustomer', status: 404, problem, code: 'customer_not_found' });
    expect((error as Error).message).toBe(
      'simulateVerifyCustomer: PATCH /_sandbox/simulator/customers/x/verify answered 404 customer_not_found: no customer with id x',
    );
  });

  it('keeps the text of an answer from something that is not a sandbox', async () => {
    const client = createControlClient({ baseUrl: 'http://h:1', fetch: answering('<html>nope</html>', 502, 'text/html') });
    const error = (await client.getClock().catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 502, problem: undefined, body: '<html>nope</html>' });
  });

  it('says clearly when nothing answers', async () => {
    const client = createControlClient({
      baseUrl: 'http://127.0.0.1:9',
      fetch: () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) })),
    });
    const error = await client.getClock().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toBe('no sandbox reachable at http://127.0.0.1:9 (ECONNREFUSED) — start one with `card-sandbox start`');
  });
});

describe('follow', () => {
  const streaming = (chunks: string[]) => () =>
    Promise.resolve(
      new Response(
        new ReadableStream({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
            controller.close();
          },
        }),
        { headers: { 'Content-Type': 'text/event-stream' } },
      ),
    );

  it('parses messages split anywhere, skipping comments, joining data lines, with any line ending', async () => {
    const client = createControlClient({
      baseUrl: 'http://h:1',
      fetch: streaming([
        ': connected\n\nevent: ev',
        'ent\nid: 1\ndata: {"a":',
        '1}\n\n',
        'data: line one\r\ndata: line two\r\n\r\n',
        ': heartbeat\n\nevent: attempt\ndata:x\n\nevent: nodata\n\n',
      ]),
    });
    const messages: SseMessage[] = [];
    let opened = false;
    await client.follow('streamEvents', undefined, { onMessage: (m) => messages.push(m), onOpen: () => (opened = true) });
    expect(opened).toBe(true);
    expect(messages).toEqual([
      { event: 'event', id: '1', data: '{"a":1}' },
      { event: 'message', data: 'line one\nline two' },
      { event: 'attempt', data: 'x' },
    ]);
  });

  it('stops quietly when the caller hangs up', async () => {
    const abort = new AbortController();
    const client = createControlClient({
      baseUrl: 'http://h:1',
      fetch: () => Promise.resolve(new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('data: 1\n\n')) }))),
    });
    const messages: SseMessage[] = [];
    await client.follow('streamRequests', {
      signal: abort.signal,
      onMessage: (m) => {
        messages.push(m);
        abort.abort();
      },
    });
    expect(messages).toHaveLength(1);
  });
});
