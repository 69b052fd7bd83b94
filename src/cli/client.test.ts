import { describe, expect, it } from 'vitest';
import { ClientUsageError, createClient, RefusedError, resolveClientOptions, UnreachableError, type SseMessage } from './client.js';

describe('resolveClientOptions', () => {
  const none = () => [];
  it('takes the flag, then CARD_SANDBOX_URL, then the default', () => {
    expect(resolveClientOptions({}, {}, none)).toEqual({ url: 'http://127.0.0.1:4242' });
    expect(resolveClientOptions({}, { CARD_SANDBOX_URL: 'http://localhost:5000' })).toEqual({ url: 'http://localhost:5000' });
    expect(resolveClientOptions({ url: 'http://[::1]:7000/' }, { CARD_SANDBOX_URL: 'http://localhost:5000' })).toEqual({ url: 'http://[::1]:7000' });
  });

  it('takes the port as start does: --port, then CARD_SANDBOX_PORT, on CARD_SANDBOX_HOST when it names one', () => {
    expect(resolveClientOptions({ port: '5000' }, { CARD_SANDBOX_URL: 'http://localhost:6000' }).url).toBe('http://127.0.0.1:5000');
    expect(resolveClientOptions({}, { CARD_SANDBOX_PORT: '5000' }).url).toBe('http://127.0.0.1:5000');
    expect(resolveClientOptions({}, { CARD_SANDBOX_URL: 'http://localhost:6000', CARD_SANDBOX_PORT: '5000' }).url).toBe('http://localhost:6000');
    expect(resolveClientOptions({}, { CARD_SANDBOX_PORT: '5000', CARD_SANDBOX_HOST: '0.0.0.0' }).url).toBe('http://127.0.0.1:5000');
    expect(resolveClientOptions({}, { CARD_SANDBOX_PORT: '5000', CARD_SANDBOX_HOST: '::1' }).url).toBe('http://[::1]:5000');
    expect(() => resolveClientOptions({ port: 'http' }, {})).toThrow(/--port must be a port from 1 to 65535, got "http"/);
    expect(() => resolveClientOptions({}, { CARD_SANDBOX_PORT: '70000' })).toThrow(/CARD_SANDBOX_PORT must be a port/);
  });

  it('without a URL or port, finds the one sandbox running on this machine', () => {
    const one = () => [{ pid: 1, url: 'http://127.0.0.1:5000' }];
    expect(resolveClientOptions({}, {}, one).url).toBe('http://127.0.0.1:5000');
    expect(resolveClientOptions({}, { CARD_SANDBOX_PORT: '0' }, one).url).toBe('http://127.0.0.1:5000');
    expect(resolveClientOptions({ url: 'http://h:1' }, {}, one).url).toBe('http://h:1');
    const two = (url: string) => () => [{ pid: 1, url }, { pid: 2, url: 'http://127.0.0.1:5000' }];
    expect(resolveClientOptions({}, {}, two('http://127.0.0.1:4242')).url).toBe('http://127.0.0.1:4242');
    expect(() => resolveClientOptions({}, {}, two('http://127.0.0.1:6000'))).toThrow('2 sandboxes are running (http://127.0.0.1:6000, http://127.0.0.1:5000): say which with --url');
  });

  it('accepts the API or control plane URL the banner prints', () => {
    expect(resolveClientOptions({ url: 'http://127.0.0.1:4242/v1' }, {}).url).toBe('http://127.0.0.1:4242');
    expect(resolveClientOptions({ url: 'http://127.0.0.1:4242/_sandbox/' }, {}).url).toBe('http://127.0.0.1:4242');
    expect(resolveClientOptions({ url: 'https://sandbox.test/team-a' }, {}).url).toBe('https://sandbox.test/team-a');
  });

  it('takes the admin token from the flag or CARD_SANDBOX_ADMIN_TOKEN', () => {
    expect(resolveClientOptions({}, { CARD_SANDBOX_ADMIN_TOKEN: 'env' }, none).adminToken).toBe('env');
    expect(resolveClientOptions({ adminToken: 'flag' }, { CARD_SANDBOX_ADMIN_TOKEN: 'env' }, none).adminToken).toBe('flag');
  });

  it.each(['localhost:4242', 'ftp://127.0.0.1', 'not a url'])('refuses --url %s', (url) => {
    expect(() => resolveClientOptions({ url }, {})).toThrow(ClientUsageError);
  });
});

const answering = (body: string, status: number, contentType: string) => () => Promise.resolve(new Response(body, { status, headers: { 'Content-Type': contentType } }));

describe('createClient', () => {
  it('sends JSON with the admin token to /_sandbox and parses the answer', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const client = createClient({ url: 'http://h:1', adminToken: 't0k' }, (url, init) => {
      seen.push({ url, init: init! });
      return Promise.resolve(Response.json({ now: 'x', ran: 2 }));
    });
    expect(await client.request('POST', '/clock/advance', { by: '1h' })).toEqual({ now: 'x', ran: 2 });
    expect(seen[0]!.url).toBe('http://h:1/_sandbox/clock/advance');
    expect(seen[0]!.init.headers).toEqual({ Authorization: 'Bearer t0k', 'Content-Type': 'application/json' });
    expect(seen[0]!.init.body).toBe('{"by":"1h"}');
  });

  it('resolves to undefined for an empty answer (202 from the simulator)', async () => {
    const client = createClient({ url: 'http://h:1' }, () => Promise.resolve(new Response(null, { status: 202 })));
    expect(await client.request('PATCH', '/simulator/cards/x/issue')).toBeUndefined();
  });

  it('turns a problem into RefusedError carrying it', async () => {
    const problem = { title: 'Customer not found', status: 404, detail: 'no customer with id x', code: 'customer_not_found' };
    const client = createClient({ url: 'http://h:1' }, answering(JSON.stringify(problem), 404, 'application/problem+json'));
    const error = await client.request('PATCH', '/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusedError);
    expect((error as RefusedError).problem).toEqual(problem);
    expect((error as Error).message).toBe('Customer not found: no customer with id x');
  });

  it('describes an answer from something that is not a sandbox', async () => {
    const client = createClient({ url: 'http://h:1' }, answering('<html>nope</html>', 502, 'text/html'));
    const error = (await client.request('GET', '/clock').catch((e: unknown) => e)) as RefusedError;
    expect(error.problem).toMatchObject({ status: 502, title: expect.stringContaining('502'), detail: '<html>nope</html>' });
  });

  it('says clearly when nothing answers', async () => {
    const client = createClient({ url: 'http://127.0.0.1:9' }, () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) })));
    const error = await client.request('GET', '/clock').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toBe('no sandbox reachable at http://127.0.0.1:9 (ECONNREFUSED) — start one with `card-sandbox start`');
  });
});

describe('client.stream', () => {
  const streaming = (chunks: string[]) => () =>
    Promise.resolve(new Response(new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    }), { headers: { 'Content-Type': 'text/event-stream' } }));

  it('parses messages split anywhere, skipping comments, joining data lines, with any line ending', async () => {
    const client = createClient({ url: 'http://h:1' }, streaming([': connected\n\nevent: ev', 'ent\nid: 1\ndata: {"a":', '1}\n\n', 'data: line one\r\ndata: line two\r\n\r\n', ': heartbeat\n\nevent: attempt\ndata:x\n\nevent: nodata\n\n']));
    const messages: SseMessage[] = [];
    await client.stream('/events/stream', (m) => messages.push(m));
    expect(messages).toEqual([
      { event: 'event', id: '1', data: '{"a":1}' },
      { event: 'message', data: 'line one\nline two' },
      { event: 'attempt', data: 'x' },
    ]);
  });

  it('stops quietly when the caller hangs up', async () => {
    const abort = new AbortController();
    const client = createClient({ url: 'http://h:1' }, () =>
      Promise.resolve(new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('data: 1\n\n')) }))));
    const messages: SseMessage[] = [];
    await client.stream('/events/stream', (m) => {
      messages.push(m);
      abort.abort();
    }, abort.signal);
    expect(messages).toHaveLength(1);
  });
});
