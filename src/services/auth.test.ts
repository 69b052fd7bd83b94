/**
 * Authentication (docs/signatures.md: Authentication, signatures and idempotency) through the API: tokens and their expiry in sandbox time, refused
 * forgeries, credential rotation and revocation, and request-signing key registration.
 */
import { generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClock } from '../kernel/clock.js';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET, defaultConfig } from '../config/index.js';
import { buildDeps } from '../deps.js';
import { DEFAULT_PROGRAMME } from '../domain/programme.js';
import { seededRandom } from '../kernel/ids.js';
import { memoryLog } from '../kernel/log.js';
import { openStore } from '../store/store.js';
import { createTestSandbox, T0, type TestSandbox } from '../testing/harness.js';
import { newSigningKey } from '../testing/signer.js';
import { programmeOfToken } from './auth.js';
import { chainsWith, OTHER_KEY, tokenFor } from '../testing/tokens.js';

const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe('POST /v1/auth/token', () => {
  it('issues an HS256 JWT that expires after 1 h of sandbox time, expiresAt in UNIX seconds', async () => {
    const sandbox = createTestSandbox();
    const { status, body } = await tokenFor(sandbox);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'token', 'tokenType']);
    expect(body).toMatchObject({ tokenType: 'Bearer', expiresAt: T0 / 1000 + 3600 });
    const [header, payload] = (body.token as string)
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: DEFAULT_API_KEY, exp: body.expiresAt });
    expect((await chainsWith(sandbox, body.token)).status).toBe(200);
  });

  it('takes its lifetime from --token-ttl', async () => {
    const sandbox = createTestSandbox({ tokenTtlMs: 60_000 });
    expect((await tokenFor(sandbox)).body.expiresAt).toBe(T0 / 1000 + 60);
  });

  it('refuses an unknown key or a wrong secret with 401 Invalid credentials', async () => {
    const sandbox = createTestSandbox();
    for (const [apiKey, apiSecret] of [
      [OTHER_KEY, DEFAULT_API_SECRET],
      [DEFAULT_API_KEY, 'wrong'],
    ] as const) {
      const { status, headers, body } = await tokenFor(sandbox, apiKey, apiSecret);
      expect(status).toBe(401);
      expect(headers.get('Content-Type')).toBe('application/problem+json');
      expect(body).toMatchObject({ status: 401, title: 'Invalid credentials', code: 'invalid_credentials' });
    }
  });

  it('names every bad field of a malformed request', async () => {
    const { status, body } = await createTestSandbox().json('POST', '/v1/auth/token', { token: false, body: { apiKey: 'not-a-uuid', apiSecret: 7 } });
    expect(status).toBe(400);
    expect(body.code).toBe('invalid_request');
    expect(body.errors.map((e: { path: string }) => e.path)).toEqual(['apiKey', 'apiSecret']);
  });

  it('uses --api-key/--api-secret instead of the default credential', async () => {
    const sandbox = createTestSandbox({ apiKey: OTHER_KEY, apiSecret: 'configured' });
    expect((await tokenFor(sandbox)).status).toBe(401);
    expect((await tokenFor(sandbox, OTHER_KEY, 'configured')).status).toBe(200);
  });
});

describe('bearer tokens', () => {
  const refused = async (sandbox: TestSandbox, authorization: string | undefined, reason: RegExp) => {
    const res = await sandbox.json('GET', '/v1/chains', { token: false, headers: authorization === undefined ? {} : { Authorization: authorization } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, title: 'Not authorised', code: 'not_authorised' });
    expect(res.body.detail).toMatch(reason);
  };

  it('are required on every /v1 operation but POST /auth/token', async () => {
    const sandbox = createTestSandbox();
    await refused(sandbox, undefined, /missing Authorization header/);
    const put = await sandbox.json('PUT', '/v1/auth/signing', { token: false, body: { signingKeyId: OTHER_KEY, signingKey: newSigningKey().signingKey } });
    expect(put.status).toBe(401);
  });

  it('expire when the sandbox clock reaches expiresAt', async () => {
    const sandbox = createTestSandbox();
    const { token } = (await tokenFor(sandbox)).body;
    await sandbox.deps.services.scheduler.advance(T0 + 3_599_999);
    expect((await chainsWith(sandbox, token)).status).toBe(200);
    await sandbox.deps.services.scheduler.advance(T0 + 3_600_000);
    await refused(sandbox, `Bearer ${token}`, /the token expired at 2026-03-01T10:00:00.000Z \(sandbox time\)/);
    expect((await chainsWith(sandbox, (await tokenFor(sandbox)).body.token)).status).toBe(200);
  });

  it('accept the scheme in any case (RFC 9110 §11.1)', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json('GET', '/v1/chains', { token: false, headers: { Authorization: `bearer ${sandbox.token()}` } });
    expect(res.status).toBe(200);
  });

  it('refuse other schemes and junk', async () => {
    const sandbox = createTestSandbox();
    await refused(sandbox, `Basic ${Buffer.from(`${DEFAULT_API_KEY}:${DEFAULT_API_SECRET}`).toString('base64')}`, /Bearer <JWT>/);
    await refused(sandbox, 'Bearer', /Bearer <JWT>/);
    await refused(sandbox, 'Bearer a.b.c', /not a readable JWT/);
  });

  it('are read from the header the same way for the programme and for the check: the scheme in any case, any whitespace after it, space around', () => {
    const sandbox = createTestSandbox();
    const token = sandbox.token();
    for (const authorization of [`Bearer ${token}`, `bearer ${token}`, `BEARER ${token}`, `Bearer \t  ${token}`, `  Bearer ${token}\t`]) {
      expect(programmeOfToken(authorization)).toBe(DEFAULT_PROGRAMME);
      expect(sandbox.deps.services.auth.authenticate(authorization)).toBe(DEFAULT_API_KEY);
    }
  });

  it('refuse a header that is not "Bearer <JWT>" before reading the token, and name no programme for it', () => {
    const sandbox = createTestSandbox();
    const token = sandbox.token();
    const [header, payload] = token.split('.') as [string, string, string];
    const refusal = (authorization: string | undefined) => {
      try {
        sandbox.deps.services.auth.authenticate(authorization);
      } catch (error) {
        return error;
      }
      throw new Error(`${authorization} was accepted`);
    };
    for (const authorization of [undefined, '']) {
      expect(programmeOfToken(authorization)).toBeUndefined();
      expect(refusal(authorization)).toMatchObject({
        code: 'not_authorised',
        detail: 'missing Authorization header: send Authorization: Bearer <token> from POST /v1/auth/token',
      });
    }
    for (const authorization of [
      ' ',
      'Bearer',
      `Bearer${token}`,
      `Token ${token}`,
      `Basic ${token}`,
      `Bearer ${token} ${token}`,
      `Bearer "${token}"`,
      `Bearer ${token}=`,
      `Bearer ${token}.AA`,
      `Bearer ${header}.${payload}`,
      `Bearer ${header}..AA`,
    ]) {
      expect(programmeOfToken(authorization)).toBeUndefined();
      expect(refusal(authorization)).toMatchObject({ code: 'not_authorised', detail: 'Authorization must be "Bearer <JWT>"' });
    }
  });

  it("name their programme by the prg claim, read before any check: the default programme's without one, none when the claims are unreadable", () => {
    const token = (claims: unknown) => `Bearer ${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}.AA`;
    expect(programmeOfToken(token({ prg: 'a-programme' }))).toBe('a-programme');
    expect(programmeOfToken(token({ sub: DEFAULT_API_KEY }))).toBe(DEFAULT_PROGRAMME);
    expect(programmeOfToken(token({ prg: 7 }))).toBe(DEFAULT_PROGRAMME);
    expect(programmeOfToken(token(null))).toBe(DEFAULT_PROGRAMME);
    expect(programmeOfToken(token('{not json'))).toBeUndefined();
  });

  it('refuse alg "none", RS256 and a forged HS256 signature', async () => {
    const sandbox = createTestSandbox();
    const claims = JSON.parse(Buffer.from(sandbox.token().split('.')[1]!, 'base64url').toString());
    const payload = b64url(claims);
    await refused(sandbox, `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`, /Bearer <JWT>/);
    await refused(sandbox, `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.AA`, /algorithm must be HS256, got "none"/);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsInput = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${payload}`;
    await refused(
      sandbox,
      `Bearer ${rsInput}.${cryptoSign('sha256', Buffer.from(rsInput), privateKey).toString('base64url')}`,
      /algorithm must be HS256, got "RS256"/,
    );
    const hsInput = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${payload}`;
    await refused(sandbox, `Bearer ${hsInput}.${b64url('a guessed signature with 32 bytes')}`, /signature is not valid/);
  });

  it('refuse a tampered payload', async () => {
    const sandbox = createTestSandbox();
    const [header, payload, signature] = sandbox.token().split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    await refused(sandbox, `Bearer ${header}.${b64url({ ...claims, exp: claims.exp + 86_400 })}.${signature}`, /signature is not valid/);
    await refused(sandbox, `Bearer ${header}.${b64url({ ...claims, sub: OTHER_KEY })}.${signature}`, /signature is not valid/);
  });

  it('are signed with a secret of the database: another sandbox refuses them, a restart keeps them', async () => {
    const a = createTestSandbox();
    const b = createTestSandbox({}, { random: seededRandom(7) });
    await refused(b, `Bearer ${a.token()}`, /signature is not valid/);

    const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-auth-'));
    try {
      const config = defaultConfig({ db: join(dir, 'sandbox.db') });
      const open = () => buildDeps(config, { store: openStore(config.db), clock: createClock({ frozenAt: T0 }), log: memoryLog() });
      const first = open();
      const { token } = first.services.auth.issueToken(DEFAULT_API_KEY, DEFAULT_API_SECRET);
      first.services.auth.putCredentials(OTHER_KEY, 'second');
      const { token: later } = first.services.auth.issueToken(OTHER_KEY, 'second');
      first.store.close();
      const second = open();
      expect(() => second.services.auth.authenticate(`Bearer ${token}`)).toThrow(/revoked/);
      expect(second.services.auth.authenticate(`Bearer ${later}`)).toBe(OTHER_KEY);
      second.store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
