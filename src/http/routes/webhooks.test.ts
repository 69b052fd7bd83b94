/**
 * /v1/webhooks through the whole app: subscription CRUD as an integrator sees it, the
 * verification key, and every bad input refused with a problem and nothing changed.
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { iso } from '../../domain/instant.js';
import { MAX_TEXT_LENGTH } from '../../domain/formats.js';
import { createTestSandbox, T0, type TestSandbox } from '../../testing/harness.js';
import { customer } from '../../testing/world.js';

const URL_A = 'https://example.com/hooks/a';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('/v1/webhooks', () => {
  let sandbox: TestSandbox;
  beforeEach(() => {
    sandbox = createTestSandbox();
  });

  const put = (body: unknown, headers?: Record<string, string>) => sandbox.json('PUT', '/v1/webhooks', { body, headers });
  const list = async () => (await sandbox.json('GET', '/v1/webhooks')).body as { id: string }[];
  const later = (ms: number) => sandbox.deps.services.scheduler.advance(sandbox.deps.clock.now() + ms);

  it('creates a webhook without id (200, as the reference says for PUT), collapsing duplicate types', async () => {
    const res = await put({ callbackUrl: URL_A, types: ['card.updated', 'customer.updated', 'card.updated'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID_RE),
      callbackUrl: URL_A,
      types: ['card.updated', 'customer.updated'],
      createdAt: iso(T0),
      updatedAt: iso(T0),
    });
    expect(await list()).toEqual([res.body]);
    expect((await sandbox.json('GET', `/v1/webhooks/${res.body.id}`)).body).toEqual(res.body);
  });

  it('takes an empty types list: the webhook is kept and receives no events until an update names some', async () => {
    const deliveries = (id: string) =>
      (sandbox.deps.store.sqlite.prepare('SELECT count(*) AS n FROM deliveries WHERE webhook_id = ?').get(id) as { n: number }).n;
    const quiet = await put({ callbackUrl: URL_A, types: [] });
    expect(quiet.status).toBe(200);
    expect(quiet.body).toMatchObject({ callbackUrl: URL_A, types: [] });
    expect((await sandbox.json('GET', `/v1/webhooks/${quiet.body.id}`)).body.types).toEqual([]);
    await customer(sandbox);
    expect(deliveries(quiet.body.id)).toBe(0);
    await put({ id: quiet.body.id, callbackUrl: URL_A, types: ['customer.updated'] });
    await customer(sandbox);
    expect(deliveries(quiet.body.id)).toBeGreaterThan(0);
  });

  it(`takes a callbackUrl of thousands of characters, up to the sandbox's own ${MAX_TEXT_LENGTH}`, async () => {
    const long = `https://example.com/${'a'.repeat(MAX_TEXT_LENGTH - 'https://example.com/'.length)}`;
    for (const callbackUrl of [`https://example.com/${'a'.repeat(3000)}`, long]) {
      const res = await put({ callbackUrl, types: ['card.updated'] });
      expect(res.status).toBe(200);
      expect(res.body.callbackUrl).toBe(callbackUrl);
    }
  });

  it('lists webhooks oldest first', async () => {
    const a = await put({ callbackUrl: URL_A, types: ['card.updated'] });
    await later(1000);
    const b = await put({ callbackUrl: 'http://127.0.0.1:9/b', types: ['account.updated'] });
    await later(1000);
    const c = await put({ callbackUrl: 'http://localhost:3000/c?x=1', types: ['transaction.updated'] });
    expect((await list()).map((w) => w.id)).toEqual([a.body.id, b.body.id, c.body.id]);
  });

  it('updates a webhook when given its id: same id and createdAt, new updatedAt', async () => {
    const created = await put({ callbackUrl: URL_A, types: ['card.updated'] });
    await later(5000);
    const updated = await put({ id: created.body.id, callbackUrl: 'https://example.org/new', types: ['authorisation.updated', 'transaction.updated'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      id: created.body.id,
      callbackUrl: 'https://example.org/new',
      types: ['authorisation.updated', 'transaction.updated'],
      createdAt: iso(T0),
      updatedAt: iso(T0 + 5000),
    });
    expect(await list()).toEqual([updated.body]);
  });

  it('refuses to update an unknown id with 400 unknown_webhook (the status the service declares), creating nothing', async () => {
    const id = randomUUID();
    const res = await put({ id, callbackUrl: URL_A, types: ['card.updated'] });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      status: 400,
      title: 'Invalid request',
      code: 'unknown_webhook',
      errors: [{ path: 'id', message: 'names no webhook of this programme' }],
    });
    expect(res.body.detail).toContain(id);
    expect(await list()).toEqual([]);
  });

  it('deletes a webhook (204): gone from the list and from GET; a second delete is 404', async () => {
    const keep = await put({ callbackUrl: URL_A, types: ['card.updated'] });
    const gone = await put({ callbackUrl: URL_A, types: ['card.updated'] });
    expect((await sandbox.request('DELETE', `/v1/webhooks/${gone.body.id}`)).status).toBe(204);
    expect(await list()).toEqual([keep.body]);
    expect((await sandbox.json('GET', `/v1/webhooks/${gone.body.id}`)).body).toMatchObject({ status: 404, code: 'webhook_not_found' });
    expect((await sandbox.json('DELETE', `/v1/webhooks/${gone.body.id}`)).body).toMatchObject({ status: 404, code: 'webhook_not_found' });
    expect((await put({ id: gone.body.id, callbackUrl: URL_A, types: ['card.updated'] })).body).toMatchObject({ status: 400, code: 'unknown_webhook' });
  });

  it('answers 404 for an unknown webhook and 400 for an id that is not a UUID', async () => {
    expect((await sandbox.json('GET', `/v1/webhooks/${randomUUID()}`)).body).toMatchObject({
      status: 404,
      code: 'webhook_not_found',
      title: 'Webhook not found',
    });
    for (const method of ['GET', 'DELETE']) {
      const res = await sandbox.json(method, '/v1/webhooks/not-a-uuid');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', title: 'Invalid request', errors: [{ path: 'webhookId' }] });
    }
  });

  it('serves the verification key: a keyId and base64 of the PEM SPKI of a P-384 public key, the same every time', async () => {
    const res = await sandbox.json('GET', '/v1/webhooks/verification-key');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['key', 'keyId']);
    expect(res.body.keyId).toMatch(UUID_RE);
    const pem = Buffer.from(res.body.key, 'base64').toString('utf8');
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    const key = createPublicKey(pem);
    expect(key.asymmetricKeyDetails?.namedCurve).toBe('secp384r1');
    expect((await sandbox.json('GET', '/v1/webhooks/verification-key')).body).toEqual(res.body);
  });

  it('needs a bearer token like every /v1 operation', async () => {
    expect((await sandbox.json('GET', '/v1/webhooks', { token: false })).body).toMatchObject({ status: 401, code: 'not_authorised' });
    expect((await sandbox.json('PUT', '/v1/webhooks', { token: false, body: { callbackUrl: URL_A, types: ['card.updated'] } })).status).toBe(401);
    expect(await list()).toEqual([]);
  });

  it('replays a create sent twice with the same Idempotency-Key: one webhook', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await put({ callbackUrl: URL_A, types: ['card.updated'] }, headers);
    const again = await put({ callbackUrl: URL_A, types: ['card.updated'] }, headers);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await list()).toHaveLength(1);
  });

  describe('refuses bad input with 400 naming the field, and changes nothing', () => {
    const badUrls: [string, unknown][] = [
      ['a relative path', '/hooks'],
      ['no scheme', 'example.com/hooks'],
      ['another scheme', 'ftp://example.com/hooks'],
      ['a javascript: URL', 'javascript:alert(1)'],
      ['no host', 'http://'],
      ['a scheme without slashes', 'http:example.com'],
      ['spaces', 'http://example.com/a b'],
      ['leading space', ' http://example.com/'],
      ['an empty string', ''],
      [`over the sandbox's own ${MAX_TEXT_LENGTH} characters`, `https://example.com/${'a'.repeat(MAX_TEXT_LENGTH)}`],
      ['a number', 42],
      ['null', null],
    ];
    it.each(badUrls)('callbackUrl with %s', async (_, callbackUrl) => {
      const res = await put({ callbackUrl, types: ['card.updated'] });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, title: 'Invalid request', code: 'invalid_request' });
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['callbackUrl']);
      expect(await list()).toEqual([]);
    });

    const badTypes: [string, unknown][] = [
      ['an unknown type', ['card.created']],
      ['one unknown among good ones', ['card.updated', 'CARD.UPDATED']],
      ['a string, not an array', 'card.updated'],
      ['null', null],
    ];
    it.each(badTypes)('types as %s', async (_, types) => {
      const res = await put({ callbackUrl: URL_A, types });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.errors.every((e: { path: string }) => e.path.startsWith('types'))).toBe(true);
      expect(await list()).toEqual([]);
    });

    it('a missing callbackUrl and types, named together', async () => {
      const res = await put({});
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['callbackUrl', 'types']);
    });

    it('an id that is not a UUID', async () => {
      const res = await put({ id: 'webhook-1', callbackUrl: URL_A, types: ['card.updated'] });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['id']);
      expect(await list()).toEqual([]);
    });

    it('a body that is not JSON, or not an object', async () => {
      for (const body of ['{"callbackUrl":', '[]', '"x"']) {
        const res = await sandbox.json('PUT', '/v1/webhooks', { body });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_request');
      }
      expect(await list()).toEqual([]);
    });

    it('an update with a bad field leaves the webhook as it was', async () => {
      const created = await put({ callbackUrl: URL_A, types: ['card.updated'] });
      expect((await put({ id: created.body.id, callbackUrl: 'mailto:ops@example.com', types: ['card.updated'] })).status).toBe(400);
      expect(await list()).toEqual([created.body]);
    });
  });

  it('checks the same rules when called directly (as a seed world does)', () => {
    const { webhooks } = sandbox.deps.services;
    expect(() => webhooks.put({ callbackUrl: 'ftp://x', types: ['card.updated'] })).toThrow(
      expect.objectContaining({ code: 'invalid_request', errors: [expect.objectContaining({ path: 'callbackUrl' })] }),
    );
    expect(webhooks.list()).toEqual([]);
  });
});
