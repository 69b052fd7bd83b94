/**
 * The headers of an answer are those its operation declares for its status, in both documents
 * (docs/api.md: Response headers): `Request-Id` on every answer, `Retry-After` on the API fault
 * lab's 429 and 503, `Sandbox-Warning` with `--verify warn`, `Idempotent-Replayed` on a replay,
 * and the control plane's own. The harness checks every answer of the suite the same way
 * (testing/wire.ts: headerMismatch); these requests make each header appear at least once.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { newSigningKey, registerSigningKey, sendSigned } from '../testing/signer.js';
import { testWallet } from '../testing/world.js';
import { declaredAnswers, headerMismatch } from '../testing/wire.js';

type Header = { required?: boolean; schema?: { type?: string; format?: string } };
type Document = { paths: Record<string, Record<string, { summary?: string; responses: Record<string, { headers?: Record<string, Header> }> }>> };

const documents = async (sb: TestSandbox) => ({
  api: (await sb.json('GET', '/openapi.json', { token: false })).body as Document,
  control: (await sb.json('GET', '/_sandbox/openapi.json', { token: false })).body as Document,
});

/** The headers `method path` declares for `status` in `document`. */
const declaredOn = (document: Document, method: string, path: string, status: number) =>
  document.paths[path]![method]!.responses[String(status)]!.headers ?? {};

describe('response headers', () => {
  it('declares Request-Id, required and a UUID, on every answer of every operation of both documents', async () => {
    const sb = createTestSandbox();
    const without: string[] = [];
    for (const document of Object.values(await documents(sb)))
      for (const [path, item] of Object.entries(document.paths))
        for (const [method, op] of Object.entries(item))
          for (const [status, response] of Object.entries(op.responses)) {
            const header = response.headers?.['Request-Id'];
            if (!header?.required || header.schema?.format !== 'uuid') without.push(`${method} ${path} ${status}`);
          }
    expect(without).toEqual([]);
  });

  it('sends Retry-After on the fault lab 429, always, and on a 503 that names it, as declared', async () => {
    const sb = createTestSandbox();
    const { api } = await documents(sb);
    const limited = await sb.request('GET', '/v1/chains', { headers: { 'Sandbox-Fault': 'status=429' } });
    expect([limited.status, limited.headers.get('Retry-After')]).toEqual([429, '1']);
    expect(declaredOn(api, 'get', '/chains', 429)['Retry-After']).toMatchObject({ required: true, schema: { type: 'integer' } });
    const unavailable = await sb.request('GET', '/v1/chains', { headers: { 'Sandbox-Fault': 'status=503; retry-after=7' } });
    expect([unavailable.status, unavailable.headers.get('Retry-After')]).toEqual([503, '7']);
    const bare = await sb.request('GET', '/v1/chains', { headers: { 'Sandbox-Fault': 'status=503' } });
    expect([bare.status, bare.headers.get('Retry-After')]).toEqual([503, null]);
    expect(declaredOn(api, 'get', '/chains', 503)['Retry-After']).toMatchObject({ schema: { type: 'integer' } });
    expect(declaredOn(api, 'get', '/chains', 503)['Retry-After']!.required).toBeUndefined();
  });

  it('sends Idempotent-Replayed on the stored answer to a retry, declared on the operation', async () => {
    const sb = createTestSandbox();
    const { api } = await documents(sb);
    const body = { chainId: testWallet('replayed').chainId, externalId: 'replayed' };
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await sb.request('POST', '/v1/customers', { body, headers });
    const again = await sb.request('POST', '/v1/customers', { body, headers });
    expect([first.status, first.headers.get('Idempotent-Replayed')]).toEqual([201, null]);
    expect([again.status, again.headers.get('Idempotent-Replayed')]).toEqual([201, 'true']);
    expect(Object.keys(declaredOn(api, 'post', '/customers', 201))).toContain('Idempotent-Replayed');
    // A read is never replayed: it does not say it could be.
    expect(Object.keys(declaredOn(api, 'get', '/customers', 200))).not.toContain('Idempotent-Replayed');
  });

  it('sends Sandbox-Warning with --verify warn on an operation past verification, declared there', async () => {
    const sb = createTestSandbox({ verify: 'warn' });
    const key = newSigningKey();
    await registerSigningKey(sb, key);
    const res = await sendSigned(sb, newSigningKey(key.keyId), 'GET', '/v1/chains');
    expect(res.status).toBe(200);
    expect(res.headers.get('Sandbox-Warning')).toMatch(/^invalid_signature: /);
    const { api } = await documents(sb);
    expect(Object.keys(declaredOn(api, 'get', '/chains', 200))).toContain('Sandbox-Warning');
    // The token route is never verified.
    expect(Object.keys(declaredOn(api, 'post', '/auth/token', 200))).toEqual(['Request-Id']);
  });

  it('sends the control plane its own: a stream no-cache, a snapshot file as an attachment', async () => {
    const sb = createTestSandbox();
    const stream = await sb.request('GET', '/_sandbox/events/stream');
    expect([stream.status, stream.headers.get('Cache-Control')]).toEqual([200, 'no-cache']);
    await stream.body!.cancel();
    const { body: snapshot } = await sb.json<{ id: string }>('POST', '/_sandbox/snapshots', { body: { name: 'before lunch' } });
    const file = await sb.request('GET', `/_sandbox/snapshots/${snapshot.id}/file`);
    expect(file.headers.get('Content-Disposition')).toBe('attachment; filename="before-lunch.snapshot.json"');
  });

  it('finds an undeclared header, a required one left out and a value that is not its schema', async () => {
    const sb = createTestSandbox();
    const declared = declaredAnswers(sb.app.openAPIRegistry.definitions);
    const id = randomUUID();
    expect(headerMismatch(declared, 'GET', '/v1/chains', 200, new Headers({ 'Request-Id': id, 'Content-Type': 'application/json' }))).toBeUndefined();
    expect(headerMismatch(declared, 'GET', '/v1/chains', 200, new Headers({ 'Request-Id': id, 'X-Extra': '1' }))).toMatch(
      /sends x-extra, which it does not declare/,
    );
    expect(headerMismatch(declared, 'GET', '/v1/chains', 200, new Headers())).toMatch(/does not send Request-Id, which it declares required/);
    expect(headerMismatch(declared, 'GET', '/v1/chains', 429, new Headers({ 'Request-Id': id, 'Retry-After': 'soon' }))).toMatch(
      /Retry-After: soon, not its schema/i,
    );
    // A path no operation has is the document's 404, not an operation's.
    expect(headerMismatch(declared, 'GET', '/v1/nowhere', 404, new Headers({ 'X-Extra': '1' }))).toBeUndefined();
  });
});
