import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { newSigningKey, registerSigningKey } from '../testing/signer.js';
import { testWallet } from '../testing/world.js';
import { signRequest, verifyWebhook, WebhookVerificationError } from './index.js';

const ORIGIN = 'http://127.0.0.1:4242';

/** Sends what signRequest produced through the in-process app. */
async function send(sb: TestSandbox, path: string, signed: ReturnType<typeof signRequest>) {
  const res = await sb.app.request(`${ORIGIN}${path}`, {
    method: signed.method,
    headers: { ...signed.headers, Authorization: `Bearer ${sb.token()}` },
    body: signed.body,
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}

describe('signRequest', () => {
  test('signed GET and POST pass --verify strict, and the POST is idempotent under its key', async () => {
    const sb = createTestSandbox({ verify: 'strict' });
    const key = newSigningKey();
    await registerSigningKey(sb, key);

    const get = signRequest({ method: 'GET', url: `${ORIGIN}/v1/chains`, keyId: key.keyId, privateKey: key.privateKey });
    expect((await send(sb, '/v1/chains', get)).status).toBe(200);

    const wallet = testWallet('client-test');
    const body = { chainId: wallet.chainId, externalId: 'client-1' };
    const post = signRequest({ method: 'POST', url: `${ORIGIN}/v1/customers`, body, keyId: key.keyId, privateKey: key.privateKey });
    expect(post.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(post.headers['Content-Digest']).toMatch(/^sha-512=:.+:$/);
    const created = await send(sb, '/v1/customers', post);
    expect(created.status).toBe(201);
    expect((await send(sb, '/v1/customers', post)).body.id).toBe(created.body.id);
  });

  test('a body changed after signing is refused', async () => {
    const sb = createTestSandbox({ verify: 'strict' });
    const key = newSigningKey();
    await registerSigningKey(sb, key);
    const signed = signRequest({
      method: 'PUT',
      url: `${ORIGIN}/v1/webhooks`,
      body: { callbackUrl: 'http://127.0.0.1:9/a', types: ['card.updated'] },
      keyId: key.keyId,
      privateKey: key.privateKey,
    });
    const tampered = { ...signed, body: JSON.stringify({ callbackUrl: 'http://127.0.0.1:9/b', types: ['card.updated'] }) };
    const res = await send(sb, '/v1/webhooks', tampered);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_content_digest');
  });

  test('an expired signature is refused', async () => {
    const sb = createTestSandbox({ verify: 'strict' });
    const key = newSigningKey();
    await registerSigningKey(sb, key);
    const created = Math.floor(Date.now() / 1000) - 120;
    const signed = signRequest({ method: 'GET', url: `${ORIGIN}/v1/cards`, keyId: key.keyId, privateKey: key.privateKey, created, expiresIn: 60 });
    const res = await send(sb, '/v1/cards', signed);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_signature');
  });
});

describe('verifyWebhook', () => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  async function deliveredWebhook() {
    const sb = createTestSandbox();
    receiver = await startTestReceiver(200);
    expect((await sb.json('PUT', '/v1/webhooks', { body: { callbackUrl: `${receiver.url}/hooks`, types: ['customer.updated'] } })).status).toBe(200);
    const { key } = (await sb.json('GET', '/v1/webhooks/verification-key')).body;
    const created = await sb.json('POST', '/v1/customers', { body: { chainId: testWallet('hook').chainId, externalId: 'hook-1' } });
    await sb.deps.services.scheduler.advance(sb.deps.clock.now());
    const [request] = await receiver.waitFor(1);
    return { key: key as string, request: request!, customerId: created.body.id as string };
  }

  test('a delivery from the sandbox verifies with the key from GET /v1/webhooks/verification-key', async () => {
    const { key, request, customerId } = await deliveredWebhook();
    const event = verifyWebhook({ method: request.method, path: request.path, headers: request.headers, body: request.body, key });
    expect(event).toMatchObject({ webhookType: 'customer.updated', id: customerId, status: 'initiating' });
  });

  test('a tampered body, a wrong key or a stale signature throws', async () => {
    const { key, request } = await deliveredWebhook();
    const tampered = Buffer.from(request.body.toString().replace('initiating', 'active'));
    expect(() => verifyWebhook({ path: request.path, headers: request.headers, body: tampered, key })).toThrow(WebhookVerificationError);

    const other = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
    expect(() => verifyWebhook({ path: request.path, headers: request.headers, body: request.body, key: other })).toThrow(/does not verify/);

    expect(() => verifyWebhook({ path: '/elsewhere', headers: request.headers, body: request.body, key })).toThrow(/does not verify/);
    const later = Math.floor(Date.now() / 1000) + 3600;
    expect(() => verifyWebhook({ path: request.path, headers: request.headers, body: request.body, key, now: later })).toThrow(/older than/);
  });
});
