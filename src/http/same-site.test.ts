/**
 * Nothing but the user reaches the sandbox (docs/reliability.md: Reliability and security): for every route the
 * app serves — the list comes from the app, so a new route is covered without a new test — a
 * foreign Host (DNS rebinding) is refused on every route, and a foreign Origin or a cross-site
 * fetch on every control-plane and simulator route, before anything happens. Same-origin pages and
 * clients that send no Origin are untouched.
 */
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { recordChanges } from '../testing/state.js';
import { crossSite, hostAllowed, hostName, isLoopbackName } from './middleware/same-site.js';

const sb = createTestSandbox();
const ROUTES = [
  ...new Map(
    sb.app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => [`${r.method} ${r.path}`, [r.method, r.path.replace(/:(\w+)\{[^}]*\}|:(\w+)/g, '00000000-0000-4000-8000-000000000000')] as [string, string]]),
  ).values(),
];
const GUARDED = ROUTES.filter(([, path]) => (path.startsWith('/_sandbox') && !path.startsWith('/_sandbox/ui')) || path.startsWith('/v1/simulator'));
const STATE_CHANGING = GUARDED.filter(([method]) => method !== 'GET');

describe('the rules', () => {
  it('reads the name out of a Host header', () => {
    expect(['localhost:4242', 'LOCALHOST', '[::1]:4242', '127.0.0.1:80', 'evil.example.:4242'].map(hostName)).toEqual([
      'localhost',
      'localhost',
      '::1',
      '127.0.0.1',
      'evil.example',
    ]);
  });

  it('answers loopback names and the names allowed; bound elsewhere, also addresses and single-label names', () => {
    for (const name of ['localhost', 'app.localhost', '127.0.0.1', '127.1.2.3', '::1']) expect(isLoopbackName(name), name).toBe(true);
    for (const name of ['evil.example', '10.0.0.1', 'card-sandbox', 'localhost.evil.example', '']) expect(hostAllowed(name, '127.0.0.1', []), name).toBe(false);
    expect(hostAllowed('sandbox.ci.test', '127.0.0.1', ['sandbox.ci.test'])).toBe(true);
    expect(hostAllowed('a.svc.local', 'localhost', ['.svc.local'])).toBe(true);
    expect(hostAllowed('svc.local', 'localhost', ['.svc.local'])).toBe(true);
    expect(hostAllowed('evil.example', '127.0.0.1', 'all')).toBe(true);
    for (const name of ['card-sandbox', '172.18.0.3', 'localhost']) expect(hostAllowed(name, '0.0.0.0', []), name).toBe(true);
    expect(hostAllowed('evil.example', '0.0.0.0', [])).toBe(false);
  });

  it('takes a request for a page elsewhere by its Origin or Sec-Fetch-Site', () => {
    expect(crossSite(undefined, undefined, '127.0.0.1:4242')).toBeUndefined();
    expect(crossSite('http://127.0.0.1:4242', 'same-origin', '127.0.0.1:4242')).toBeUndefined();
    expect(crossSite(undefined, 'none', '127.0.0.1:4242')).toBeUndefined();
    expect(crossSite('https://evil.example', undefined, '127.0.0.1:4242')).toBe('https://evil.example');
    expect(crossSite('http://localhost:3000', undefined, 'localhost:4242')).toBe('http://localhost:3000');
    expect(crossSite('null', undefined, '127.0.0.1:4242')).toBe('null');
    expect(crossSite(undefined, 'cross-site', '127.0.0.1:4242')).toBe('a cross-site page');
  });
});

describe('every route', () => {
  it('covers the routes that change things', () => {
    expect(STATE_CHANGING.map(([m, p]) => `${m} ${p}`)).toEqual(
      expect.arrayContaining(['POST /_sandbox/reset', 'POST /_sandbox/clock/advance', 'POST /_sandbox/programmes', 'PUT /_sandbox/api/faults']),
    );
    expect(STATE_CHANGING.some(([, p]) => p.startsWith('/v1/simulator'))).toBe(true);
  });

  it.each(GUARDED)('%s %s from a foreign Origin, or a cross-site page, is refused with 403 and changes nothing', async (method, path) => {
    const recorder = recordChanges(sb.deps.store);
    recorder.clear();
    const before = sb.deps.clock.now();
    const pages: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'http://localhost:3000', 'Sec-Fetch-Site': 'same-site' },
    ];
    for (const headers of pages) {
      const res = await sb.json(method, path, { headers, token: false, ...(method === 'GET' ? {} : { body: '' }) });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toMatchObject({ code: 'cross_site_request', title: 'Forbidden' });
    }
    expect(recorder.changes()).toEqual([]);
    expect(sb.deps.clock.now()).toBe(before);
  });

  it.each(ROUTES)('%s %s with a foreign Host (DNS rebinding) is refused with 403 naming the flag, and changes nothing', async (method, path) => {
    const recorder = recordChanges(sb.deps.store);
    recorder.clear();
    const res = await sb.json(method, path, { headers: { Host: 'evil.example:4242' }, ...(method === 'GET' ? {} : { body: '' }) });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'host_not_allowed', detail: expect.stringContaining('--allowed-hosts evil.example') });
    expect(recorder.changes()).toEqual([]);
  });
});

describe('what is untouched', () => {
  it("the sandbox's own pages and clients that send no Origin", async () => {
    const own = createTestSandbox();
    expect(
      (await own.json('GET', '/_sandbox/world', { token: false, headers: { Origin: 'http://127.0.0.1:4242', 'Sec-Fetch-Site': 'same-origin' } })).status,
    ).toBe(200);
    expect((await own.json('POST', '/_sandbox/clock/advance', { token: false, body: { by: '1h' } })).status).toBe(200);
    expect((await own.json('GET', '/_sandbox/health', { token: false, headers: { Host: 'localhost:4242' } })).status).toBe(200);
    // A link to the inspector from elsewhere opens it; the page then reads everything same-origin.
    expect((await own.request('GET', '/_sandbox/ui/', { token: false, headers: { 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(200);
    // /v1 keeps needing its token: a page elsewhere has none.
    expect((await own.json('GET', '/v1/customers', { token: false, headers: { Origin: 'https://evil.example' } })).status).toBe(401);
  });

  it('the world, when a page elsewhere POSTs /_sandbox/reset as fetch(url, { method: "POST", mode: "no-cors" }) does', async () => {
    const world = createTestSandbox();
    await world.json('POST', '/_sandbox/programmes', { token: false, body: { name: 'kept' } });
    const res = await world.request('POST', '/_sandbox/reset', {
      token: false,
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' },
    });
    expect(res.status).toBe(403);
    expect(((await world.json('GET', '/_sandbox/programmes', { token: false })).body as unknown[]).length).toBe(2);
  });
});
