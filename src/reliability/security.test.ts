/**
 * Security beyond src/services/auth.test.ts: tokens correctly MAC'd with the database's secret
 * but claiming another algorithm or malformed claims are refused (never a 500); the secret is
 * random per database; --admin-token guards every control plane route, the simulator mirror
 * included, and a refusal there changes nothing; callback URLs are http(s) only on every way in.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { cryptoRandom } from '../kernel/ids.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { issuedCard } from '../testing/world.js';

const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A token MAC'd with the sandbox's own secret, as only the sandbox could make it: what is refused here is refused for its content. */
function forge(sb: TestSandbox, header: Record<string, unknown>, claims: unknown, digest: 'sha256' | 'sha512' = 'sha256'): string {
  const input = `${b64url(header)}.${b64url(claims)}`;
  const mac = createHmac(digest, Buffer.from(sb.programmeRow().tokenSecret, 'hex')).update(input).digest('base64url');
  return `${input}.${mac}`;
}

async function expectRefused(sb: TestSandbox, token: string, detail: RegExp) {
  const res = await sb.json('GET', '/v1/customers', { token });
  expect(res.status, token).toBe(401);
  expect(res.body).toMatchObject({ title: 'Not authorised', code: 'not_authorised' });
  expect(res.body.detail).toMatch(detail);
}

describe('access tokens', () => {
  const claimsOf = (sb: TestSandbox) => JSON.parse(Buffer.from(sb.token().split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

  it("are refused when they claim any algorithm but HS256, even MAC'd with the right secret", async () => {
    const sb = createTestSandbox();
    const claims = claimsOf(sb);
    expect((await sb.json('GET', '/v1/customers', { token: forge(sb, { alg: 'HS256', typ: 'JWT' }, claims) })).status).toBe(200);
    await expectRefused(sb, forge(sb, { alg: 'HS512', typ: 'JWT' }, claims, 'sha512'), /algorithm must be HS256, got "HS512"/);
    await expectRefused(sb, forge(sb, { alg: 'hs256', typ: 'JWT' }, claims), /algorithm must be HS256/);
    await expectRefused(sb, forge(sb, { typ: 'JWT' }, claims), /algorithm must be HS256/);
    await expectRefused(sb, forge(sb, { alg: ['HS256'] }, claims), /algorithm must be HS256/);
  });

  it('are refused, never a 500, when their claims are malformed', async () => {
    const sb = createTestSandbox();
    const claims = claimsOf(sb);
    const header = { alg: 'HS256', typ: 'JWT' };
    for (const bad of [
      { ...claims, exp: undefined },
      { ...claims, exp: String(claims.exp) },
      { ...claims, exp: -1e300 },
      { ...claims, exp: 1e300 },
      { ...claims, exp: 1.5 },
      { ...claims, gen: '0' },
      { ...claims, gen: (claims.gen as number) + 1 },
      { ...claims, sub: 42 },
      'not an object',
      null,
      [claims],
    ]) {
      const res = await sb.json('GET', '/v1/customers', { token: forge(sb, header, bad) });
      expect(res.status, JSON.stringify(bad)).toBe(401);
      expect(res.body.code).toBe('not_authorised');
    }
  });

  it('are signed with 32 random bytes made for each database', () => {
    const secrets = [createTestSandbox({}, { random: cryptoRandom() }), createTestSandbox({}, { random: cryptoRandom() })].map(
      (sb) => sb.programmeRow().tokenSecret,
    );
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets[1]).not.toBe(secrets[0]);
  });

  it('are only read from the Authorization header', async () => {
    const sb = createTestSandbox();
    const res = await sb.json('GET', `/v1/customers?access_token=${sb.token()}`, { token: false });
    expect(res.status).toBe(401);
  });
});

describe('--admin-token', () => {
  const ADMIN = 'admin-token-for-tests';
  const guarded = (card: { cardId: string; customerId: string }) =>
    [
      ['GET', '/_sandbox/requests'],
      ['GET', '/_sandbox/events/stream'],
      ['POST', '/_sandbox/seed'],
      ['POST', '/_sandbox/reset'],
      ['PATCH', `/_sandbox/simulator/cards/${card.cardId}/fail`],
      ['POST', `/_sandbox/simulator/cards/${card.cardId}/authorisation`],
      ['PATCH', `/_sandbox/simulator/customers/${card.customerId}/reject`],
      ['GET', `/_sandbox/events/${randomUUID()}`],
    ] as const;

  it('refuses every control plane route without it, with a wrong one or with an API token, and changes nothing', async () => {
    // The default credentials named, as --admin-token asks (docs/reliability.md: Open to a network).
    const sb = createTestSandbox({ adminToken: ADMIN, apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET });
    const card = await issuedCard(sb);
    const events = () => sb.deps.store.sqlite.prepare('SELECT count(*) AS n FROM events').get();
    const before = events();
    for (const token of [false, 'wrong', `${ADMIN}x`, ADMIN.slice(0, -1), sb.token()] as const) {
      for (const [method, path] of guarded(card)) {
        const res = await sb.json(method, path, { token, body: method === 'GET' ? undefined : { amount: '1', currency: 'EUR' } });
        expect(res.status, `${method} ${path} with ${String(token)}`).toBe(401);
        expect(res.body.code).toBe('not_authorised');
      }
    }
    for (const [method, path] of [
      ['Basic', ADMIN],
      ['Token', ADMIN],
    ]) {
      expect((await sb.json('GET', '/_sandbox/health', { token: false, headers: { Authorization: `${method} ${path}` } })).status).toBe(401);
    }
    expect(events()).toEqual(before);
    expect(sb.deps.services.cards.get(card.cardId).status).toBe('active');
    expect((await sb.json('PATCH', `/_sandbox/simulator/cards/${card.cardId}/fail`, { token: ADMIN })).status).toBe(400);
    expect((await sb.json('GET', '/_sandbox/requests', { headers: { Authorization: `bearer ${ADMIN}` }, token: false })).status).toBe(200);
  });

  it('does not open the API: /v1 still wants its own token', async () => {
    const sb = createTestSandbox({ adminToken: ADMIN });
    expect((await sb.json('GET', '/v1/customers', { token: ADMIN })).status).toBe(401);
  });
});

describe('callback URLs', () => {
  const BAD = [
    'file:///etc/passwd',
    'data:text/plain,hi',
    'ftp://example.com/',
    'ws://example.com/hook',
    'gopher://example.com/',
    'javascript:alert(1)',
    '//example.com/hook',
    '/hook',
    'hook',
    'http:/example.com',
    'http:\\\\example.com\\hook',
    'https://',
  ];

  it.each(BAD)('refuses %s on create, on update and in a seed document, changing nothing', async (callbackUrl) => {
    const sb = createTestSandbox();
    const good = (await sb.json('PUT', '/v1/webhooks', { body: { callbackUrl: 'https://example.com/hook', types: ['card.updated'] } })).body;
    for (const body of [
      { callbackUrl, types: ['card.updated'] },
      { id: good.id, callbackUrl, types: ['card.updated'] },
    ]) {
      const res = await sb.json('PUT', '/v1/webhooks', { body });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['callbackUrl']);
    }
    const seeded = await sb.json('POST', '/_sandbox/seed', { body: { webhooks: [{ callbackUrl, types: ['card.updated'] }] } });
    expect(seeded.status).toBe(400);
    expect(sb.deps.services.webhooks.list()).toEqual([good]);
  });

  it('accepts http and https in any case', async () => {
    const sb = createTestSandbox();
    for (const callbackUrl of ['HTTP://EXAMPLE.COM/hook', 'https://example.com:8443/a?b=c', 'http://[::1]:9/hook']) {
      expect((await sb.json('PUT', '/v1/webhooks', { body: { callbackUrl, types: ['card.updated'] } })).status, callbackUrl).toBe(200);
    }
  });
});
