/** Credentials and signing keys on /v1/auth: adding, rotating and refusing them. */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../config/index.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { newSigningKey, sendSigned } from '../testing/signer.js';
import { chainsWith, OTHER_KEY, tokenFor } from '../testing/tokens.js';

describe('credentials', () => {
  it('PUT adds a credential and invalidates every token issued before', async () => {
    const sandbox = createTestSandbox();
    const before = (await tokenFor(sandbox)).body.token;
    expect((await sandbox.json('PUT', '/v1/auth/credentials', { token: before, body: { apiKey: OTHER_KEY, apiSecret: 'second' } })).status).toBe(204);
    const stale = await chainsWith(sandbox, before);
    expect(stale.status).toBe(401);
    expect(stale.body.detail).toMatch(/revoked/);
    expect((await chainsWith(sandbox, (await tokenFor(sandbox, OTHER_KEY, 'second')).body.token)).status).toBe(200);
    expect((await chainsWith(sandbox, (await tokenFor(sandbox)).body.token)).status).toBe(200);
  });

  it('PUT with an existing key rotates its secret', async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.json('PUT', '/v1/auth/credentials', { body: { apiKey: DEFAULT_API_KEY, apiSecret: 'rotated' } })).status).toBe(204);
    expect((await tokenFor(sandbox)).status).toBe(401);
    expect((await tokenFor(sandbox, DEFAULT_API_KEY, 'rotated')).status).toBe(200);
  });

  it('takes an empty apiSecret, as the service does: the credential then gets tokens with an empty secret', async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.json('PUT', '/v1/auth/credentials', { body: { apiKey: OTHER_KEY, apiSecret: '' } })).status).toBe(204);
    expect((await tokenFor(sandbox, OTHER_KEY, '')).status).toBe(200);
    expect((await tokenFor(sandbox, OTHER_KEY, 'x')).body).toMatchObject({ status: 401, code: 'invalid_credentials' });
    expect((await tokenFor(sandbox, DEFAULT_API_KEY, '')).body).toMatchObject({ status: 401, code: 'invalid_credentials' });
  });

  it('DELETE revokes the credential and every token issued before', async () => {
    const sandbox = createTestSandbox();
    await sandbox.json('PUT', '/v1/auth/credentials', { body: { apiKey: OTHER_KEY, apiSecret: 'second' } });
    const otherToken = (await tokenFor(sandbox, OTHER_KEY, 'second')).body.token;
    const defaultToken = (await tokenFor(sandbox)).body.token;
    expect((await sandbox.json('DELETE', '/v1/auth/credentials', { token: otherToken, body: { apiKey: DEFAULT_API_KEY } })).status).toBe(204);
    expect((await tokenFor(sandbox)).status).toBe(401);
    expect((await chainsWith(sandbox, defaultToken)).status).toBe(401);
    expect((await chainsWith(sandbox, otherToken)).status).toBe(401);
    expect((await chainsWith(sandbox, (await tokenFor(sandbox, OTHER_KEY, 'second')).body.token)).status).toBe(200);
  });

  it('refuses to delete the last credential or an unknown one (400, as the service declares), and changes nothing', async () => {
    const sandbox = createTestSandbox();
    const token = sandbox.token();
    const last = await sandbox.json('DELETE', '/v1/auth/credentials', { body: { apiKey: DEFAULT_API_KEY } });
    expect(last.status).toBe(400);
    expect(last.body).toMatchObject({ title: 'Invalid request', code: 'last_credential' });
    const unknown = await sandbox.json('DELETE', '/v1/auth/credentials', { body: { apiKey: OTHER_KEY } });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect(unknown.body).toMatchObject({
      title: 'Invalid request',
      code: 'unknown_credential',
      errors: [{ path: 'apiKey', message: 'names no credential of this programme' }],
    });
    expect(unknown.body.detail).toContain(OTHER_KEY);
    expect((await chainsWith(sandbox, token)).status).toBe(200);
    expect((await tokenFor(sandbox)).status).toBe(200);
  });
});

describe('signing keys', () => {
  let sandbox: TestSandbox;

  const putKey = (signingKey: string, signingKeyId = OTHER_KEY) => sandbox.json('PUT', '/v1/auth/signing', { body: { signingKeyId, signingKey } });
  const pem = (kind: 'ec' | 'rsa' | 'ed25519', options: object = {}) => {
    const { publicKey, privateKey } = generateKeyPairSync(kind as 'ec', options as { namedCurve: string });
    return {
      public: Buffer.from(publicKey.export({ type: 'spki', format: 'pem' })).toString('base64'),
      private: Buffer.from(privateKey.export({ type: 'pkcs8', format: 'pem' })).toString('base64'),
    };
  };

  it('registers a P-384 public key (base64 of PEM) under its signingKeyId, even in strict mode', async () => {
    sandbox = createTestSandbox({ verify: 'strict' });
    const key = newSigningKey(OTHER_KEY);
    expect((await putKey(key.signingKey)).status).toBe(204);
    expect((await sendSigned(sandbox, key, 'GET', '/v1/chains')).status).toBe(200);
  });

  it('PUT again under the same id replaces the key', async () => {
    sandbox = createTestSandbox({ verify: 'strict' });
    const first = newSigningKey(OTHER_KEY);
    const second = newSigningKey(OTHER_KEY);
    await putKey(first.signingKey);
    await putKey(second.signingKey);
    expect((await sendSigned(sandbox, first, 'GET', '/v1/chains')).status).toBe(400);
    expect((await sendSigned(sandbox, second, 'GET', '/v1/chains')).status).toBe(200);
  });

  it.each([
    ['a P-256 key', () => pem('ec', { namedCurve: 'P-256' }).public, /P-384 \(secp384r1\) public key, got an EC key on prime256v1/],
    ['an RSA key', () => pem('rsa', { modulusLength: 2048 }).public, /got a rsa key/],
    ['an Ed25519 key', () => pem('ed25519').public, /got a ed25519 key/],
    ['a P-384 private key', () => pem('ec', { namedCurve: 'P-384' }).private, /public key/],
    ['PEM text not in base64', () => Buffer.from(pem('ec', { namedCurve: 'P-384' }).public, 'base64').toString(), /base64 of a PEM public key/],
    ['garbage', () => 'bm90IGEga2V5', /base64 of a PEM public key/],
    ['an empty string', () => '', /base64 of a PEM public key/],
    ['a broken PEM', () => Buffer.from('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n').toString('base64'), /not a readable PEM public key/],
  ])('refuses %s with 400 naming signingKey', async (_name, make, reason) => {
    sandbox = createTestSandbox();
    const { status, body } = await putKey(make());
    expect(status).toBe(400);
    expect(body).toMatchObject({ title: 'Invalid request', code: 'invalid_signing_key' });
    expect(body.detail).toMatch(reason);
    expect(body.errors).toEqual([{ path: 'signingKey', message: body.detail }]);
    expect(sandbox.deps.services.auth.signingKey(OTHER_KEY)).toBeUndefined();
  });

  it('DELETE removes a key (later signatures with it are refused) and refuses an unknown one with 400, as the service declares', async () => {
    sandbox = createTestSandbox({ verify: 'strict' });
    const key = newSigningKey(OTHER_KEY);
    await putKey(key.signingKey);
    expect((await sandbox.json('DELETE', '/v1/auth/signing', { body: { signingKeyId: OTHER_KEY } })).status).toBe(204);
    expect((await sendSigned(sandbox, key, 'GET', '/v1/chains')).status).toBe(400);
    const again = await sandbox.json('DELETE', '/v1/auth/signing', { body: { signingKeyId: OTHER_KEY } });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      title: 'Invalid request',
      code: 'unknown_signing_key',
      errors: [{ path: 'signingKeyId', message: 'names no signing key of this programme' }],
    });
    expect(again.body.detail).toContain(OTHER_KEY);
  });
});
