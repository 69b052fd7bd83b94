/**
 * A known path asked with a method it does not have: 405 with `Allow` on both planes (RFC 9110
 * §15.5.6), an RFC 9457 problem, declared once in each document; a path no route has stays 404.
 */
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('405 method_not_allowed', () => {
  it.each([
    ['DELETE', '/v1/chains', 'GET, HEAD'],
    ['POST', `/v1/cards/${UNKNOWN}`, 'DELETE, GET, HEAD'],
    ['PUT', `/v1/customers/${UNKNOWN}/activate`, 'PATCH'],
    ['GET', '/v1/auth/token', 'POST'],
    ['OPTIONS', '/v1/webhooks', 'GET, HEAD, PUT'],
    ['POST', '/_sandbox/world', 'GET, HEAD'],
    ['DELETE', '/_sandbox/clock/advance', 'POST'],
    ['PATCH', `/_sandbox/snapshots/${UNKNOWN}`, 'DELETE'],
    ['GET', `/_sandbox/simulator/cards/${UNKNOWN}/issue`, 'PATCH'],
    ['PUT', '/_sandbox/ui/index.html', 'GET, HEAD'],
    ['POST', '/openapi.json', 'GET, HEAD'],
  ])('%s %s → 405 with Allow: %s', async (method, path, allow) => {
    const sb = createTestSandbox();
    const res = await sb.request(method, path);
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe(allow);
    expect(res.headers.get('Content-Type')).toBe('application/problem+json');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 405, code: 'method_not_allowed', title: 'Method not allowed' });
    expect(body.detail).toContain(method);
    expect(body.detail).toContain(allow);
  });

  // A literal path a templated route takes too is its own: another method is its 405, never the templated route's 400.
  it.each([
    ['DELETE', '/v1/webhooks/verification-key', 'GET, HEAD'],
    ['OPTIONS', '/v1/webhooks/verification-key', 'GET, HEAD'],
    ['DELETE', '/_sandbox/webhooks/verification-key', 'GET, HEAD'],
    ['DELETE', '/_sandbox/webhooks/pause', 'POST'],
    ['GET', '/_sandbox/webhooks/resume', 'POST'],
    ['DELETE', '/_sandbox/snapshots/restore', 'POST'],
    ['GET', '/_sandbox/events/resend', 'POST'],
  ])('%s %s, a literal path beside a templated one → 405 with Allow: %s', async (method, path, allow) => {
    const sb = createTestSandbox();
    const res = await sb.request(method, path);
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe(allow);
    expect(((await res.json()) as { code: string }).code).toBe('method_not_allowed');
  });

  it('still answers the templated route for other paths, and the literal one for its methods', async () => {
    const sb = createTestSandbox();
    expect((await sb.request('DELETE', `/v1/webhooks/${UNKNOWN}`)).status).toBe(404);
    expect((await sb.request('GET', '/v1/webhooks/verification-key')).status).toBe(200);
  });

  it('answers HEAD as GET is answered where there is a GET, and 405 where there is none', async () => {
    const sb = createTestSandbox();
    expect((await sb.request('HEAD', '/v1/chains')).status).toBe(200);
    const head = await sb.request('HEAD', '/_sandbox/clock/advance');
    expect(head.status).toBe(405);
    expect(head.headers.get('Allow')).toBe('POST');
  });

  it('leaves a path no route has a 404 route_not_found, without Allow', async () => {
    const sb = createTestSandbox();
    for (const path of ['/v1/nothing', `/v1/cards/${UNKNOWN}/nothing`, '/_sandbox/nothing', '/v1/chains/']) {
      const res = await sb.request('DELETE', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('Allow'), path).toBeNull();
      expect(((await res.json()) as { code: string }).code).toBe('route_not_found');
    }
  });

  it('is declared once in each document, as a response with the Allow header and a problem body', async () => {
    const sb = createTestSandbox();
    for (const path of ['/openapi.json', '/_sandbox/openapi.json']) {
      const doc = (await sb.json('GET', path, { token: false })).body;
      expect(doc.components.responses.MethodNotAllowed, path).toMatchObject({
        headers: { Allow: { schema: { type: 'string' } } },
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      });
    }
  });
});
