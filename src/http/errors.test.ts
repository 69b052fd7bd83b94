/**
 * The error funnel (docs/api.md: API behaviour, Errors): every refusal is an RFC 9457 problem with a stable code,
 * every response carries Request-Id, and no input produces a 500.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { mountProbeRoutes } from '../testing/probe-routes.js';

const MIB = 1_048_576;

function sandboxWithProbes(config: Parameters<typeof createTestSandbox>[0] = {}) {
  const sandbox = createTestSandbox(config);
  return { sandbox, probes: mountProbeRoutes(sandbox) };
}

/** Checks the RFC 9457 shape and that requestId is the response's Request-Id; returns the body. */
async function problem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('Content-Type')).toBe('application/problem+json');
  const body = (await res.json()) as { title: string; detail: string; requestId: string; errors?: { path: string; message: string }[] };
  expect(body).toMatchObject({ status, code, type: `https://card-sandbox.dev/problems/${code.replaceAll('_', '-')}` });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(body.requestId).toBe(res.headers.get('Request-Id'));
  return body;
}

describe('unknown routes', () => {
  it.each([
    ['GET', '/v1/nothing-here'],
    ['GET', '/elsewhere'],
    ['GET', '/v1/chains/'],
    ['GET', '/v1/%zz'],
  ])('%s %s → 404 route_not_found, even without a token', async (method, path) => {
    const { sandbox } = sandboxWithProbes();
    const body = await problem(await sandbox.request(method, path, { token: false }), 404, 'route_not_found');
    expect(body.title).toBe('Not found');
    expect(body.detail).toContain(method);
  });
});

describe('request bodies', () => {
  it('refuses a body over 1 MiB with 413 payload_too_large, and accepts exactly 1 MiB', async () => {
    const { sandbox, probes } = sandboxWithProbes();
    const exact = (bytes: number) => {
      const frame = JSON.stringify({ name: '', size: 1 });
      return JSON.stringify({ name: 'x'.repeat(bytes - frame.length), size: 1 });
    };
    const over = await sandbox.request('POST', '/v1/probes', { body: exact(MIB + 1) });
    expect((await problem(over, 413, 'payload_too_large')).title).toBe('Invalid request');
    const declared = await sandbox.request('POST', '/v1/probes', { body: exact(MIB + 1), headers: { 'Content-Length': String(MIB + 1) } });
    await problem(declared, 413, 'payload_too_large');
    expect(probes.effects).toEqual([]);
    expect((await sandbox.request('POST', '/v1/probes', { body: exact(MIB) })).status).toBe(201);
  });

  it('refuses malformed JSON with 400', async () => {
    const { sandbox, probes } = sandboxWithProbes();
    const body = await problem(await sandbox.request('POST', '/v1/probes', { body: '{"name": "a",' }), 400, 'invalid_request');
    expect(body.detail).toMatch(/JSON/);
    expect(probes.effects).toEqual([]);
    // In the house's words, with where it stops being JSON, on /v1 as on the control plane.
    const v1 = await problem(await sandbox.request('POST', '/v1/probes', { body: '{"name": "a" "size": 1}' }), 400, 'invalid_request');
    expect(v1.detail).toMatch(/^the body is not valid JSON: .*position 13/);
    const control = await problem(await sandbox.request('POST', '/_sandbox/clock/advance', { body: '{"by": "1h" "x"}', token: false }), 400, 'invalid_request');
    expect(control.detail).toMatch(/^the body is not valid JSON: .*position 12/);
  });

  it('refuses a body that is not declared as JSON with 400', async () => {
    const { sandbox, probes } = sandboxWithProbes();
    const text = await sandbox.request('POST', '/v1/probes', { body: JSON.stringify({ name: 'a', size: 1 }), headers: { 'Content-Type': 'text/plain' } });
    expect((await problem(text, 400, 'invalid_request')).detail).toMatch(/Content-Type: application\/json \(got "text\/plain"\)/);
    const bytes = new TextEncoder().encode(JSON.stringify({ name: 'a', size: 1 }));
    const untyped = await sandbox.app.request('http://127.0.0.1:4242/v1/probes', {
      method: 'POST',
      body: bytes,
      headers: { Authorization: `Bearer ${sandbox.token()}` },
    });
    expect((await problem(untyped, 400, 'invalid_request')).detail).toMatch(/no Content-Type/);
    expect(probes.effects).toEqual([]);
  });

  it('accepts JSON with parameters, ignores unknown fields', async () => {
    const { sandbox, probes } = sandboxWithProbes();
    const res = await sandbox.request('POST', '/v1/probes', {
      body: { name: 'a', size: 1, extra: true },
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
    expect(probes.effects).toEqual([{ name: 'a', size: 1 }]);
  });

  it.each([['[]'], ['null'], ['"text"'], ['42'], ['']])('refuses %j as the body with 400', async (raw) => {
    const { sandbox, probes } = sandboxWithProbes();
    await problem(await sandbox.request('POST', '/v1/probes', { body: raw }), 400, 'invalid_request');
    expect(probes.effects).toEqual([]);
  });
});

describe('validation', () => {
  it('names every bad field at once', async () => {
    const { sandbox } = sandboxWithProbes();
    const body = await problem(await sandbox.request('POST', '/v1/probes', { body: { name: '', size: 'big' } }), 400, 'invalid_request');
    expect(body.errors?.map((e) => e.path)).toEqual(['name', 'size']);
    expect(body.errors?.every((e) => e.message.length > 0)).toBe(true);
    expect(body.detail).toBe('invalid body: name, size');
  });

  it('refuses path ids that are not UUIDs with 400, never 404', async () => {
    const { sandbox } = sandboxWithProbes();
    for (const id of ['123', 'not-a-uuid', '5d2c9a4e-1111-4222-8333-44445555666', '5d2c9a4e11114222833344445555666z']) {
      const body = await problem(await sandbox.request('GET', `/v1/probes/${id}`), 400, 'invalid_request');
      expect(body.errors).toEqual([{ path: 'probeId', message: 'must be a UUID' }]);
    }
    expect((await sandbox.request('GET', '/v1/probes/5D2C9A4E-1111-4222-8333-444455556666')).status).toBe(200);
  });
});

describe('unexpected failures', () => {
  it('become a 500 problem whose detail leaks nothing; the log has the stack', async () => {
    const { sandbox, probes } = sandboxWithProbes();
    probes.failNext();
    const body = await problem(await sandbox.request('POST', '/v1/probes', { body: { name: 'a', size: 1 } }), 500, 'internal_error');
    expect(body).toMatchObject({ title: 'Internal error', detail: 'the sandbox failed to handle this request; the log has the details' });
    const logged = sandbox.log.lines.find((l) => l.level === 'error');
    expect(String(logged?.fields?.error)).toMatch(/probe failure\n\s+at /);
  });
});

describe('Request-Id', () => {
  it('is on every response, and unique', async () => {
    const { sandbox, probes } = sandboxWithProbes();
    probes.failNext();
    const responses = [
      await sandbox.request('GET', '/v1/chains'),
      await sandbox.request('POST', '/v1/probes', { body: { name: 'a', size: 1 } }),
      await sandbox.request('POST', '/v1/probes', { body: { name: 'a', size: 1 } }),
      await sandbox.request('DELETE', '/v1/probes/5d2c9a4e-1111-4222-8333-444455556666'),
      await sandbox.request('GET', '/v1/chains', { token: false }),
      await sandbox.request('GET', '/nowhere'),
      await sandbox.request('POST', '/v1/probes', { body: 'x'.repeat(MIB + 1) }),
      await sandbox.request('GET', '/_sandbox/health'),
      await sandbox.request('GET', '/openapi.json'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 500, 201, 204, 401, 404, 413, 200, 200]);
    const ids = responses.map((r) => r.headers.get('Request-Id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('GET /openapi.json', () => {
  it('documents the /v1 operations from the route schemas', async () => {
    const { status, body } = await createTestSandbox().json('GET', '/openapi.json', { token: false });
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    // Paths as the service's document writes them, below the sandbox's own /v1 (docs/api.md: API behaviour).
    expect(body.servers).toEqual([{ url: 'http://127.0.0.1:4242/v1', description: 'This sandbox' }]);
    expect(body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const operations = Object.entries(body.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /auth/token getToken',
        'PUT /auth/credentials updateCredentials',
        'DELETE /auth/credentials deleteCredentials',
        'PUT /auth/signing updateSigningKey',
        'DELETE /auth/signing deleteSigningKey',
        'GET /chains getChains',
        'GET /assets getAssets',
      ]),
    );
    expect(body.paths['/auth/token'].post.requestBody.content['application/json'].schema.required).toEqual(['apiKey', 'apiSecret']);
  });
});

describe('no input produces a 500', () => {
  // The path `/_sandbox/*` matches the control plane's catch-all layer as well as its own: its body
  // was read twice, and the second read of a consumed stream answered 500.
  it.each(['PATCH', 'PUT', 'POST', 'DELETE'])('answers %s /_sandbox/* with a body: 404, the body read once', async (method) => {
    const { sandbox } = sandboxWithProbes({ verify: 'warn' });
    const res = await sandbox.request(method, '/_sandbox/*', { body: {} });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('route_not_found');
  });

  it('survives arbitrary paths, headers and bodies', async () => {
    const { sandbox } = sandboxWithProbes({ verify: 'warn' });
    const printable = fc.string({ unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCZ[\\]^_`abcz{|}~'.split('')), maxLength: 80 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
        fc.constantFrom(
          '/v1/probes',
          '/v1/probes/',
          '/v1/chains',
          '/v1/assets?chain=',
          '/v1/auth/token',
          '/v1/auth/signing',
          '/v1/auth/credentials',
          '/_sandbox/',
          '/v1/',
        ),
        fc.webSegment(),
        fc.record(
          { Authorization: printable, 'Content-Digest': printable, 'Signature-Input': printable, Signature: printable, 'Idempotency-Key': printable },
          { requiredKeys: [] },
        ),
        fc.option(fc.oneof(fc.json(), fc.string()), { nil: undefined }),
        async (method, prefix, segment, headers, body) => {
          const res = await sandbox.request(method, `${prefix}${segment}`, { headers, body: method === 'GET' ? undefined : body });
          expect(res.status, `${method} ${prefix}${segment}`).toBeLessThan(500);
          expect(res.headers.get('Request-Id')).not.toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });
});
