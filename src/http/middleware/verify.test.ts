/**
 * Request verification (docs/signatures.md: Request verification) through the whole app: every request here is signed by the
 * independent `http-message-signatures` library, so a pass means an ordinary RFC 9421 client
 * interoperates, and each refusal is provoked by spoiling one thing.
 */
import { sign as cryptoSign } from 'node:crypto';
import { httpbis } from 'http-message-signatures';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../../config/index.js';
import { type TestSandbox } from '../../testing/harness.js';
import { type Probes } from '../../testing/probe-routes.js';
import { testWallet } from '../../testing/world.js';
import { digestHeader, HARNESS_ORIGIN, newSigningKey, registerSigningKey, sendSigned, signedHeaders, type TestSigningKey } from '../../testing/signer.js';
import { BODY, setUp } from '../../testing/verification.js';

const P384_ORDER = BigInt('0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973');

async function problemOf(res: Response) {
  expect(res.headers.get('Content-Type')).toBe('application/problem+json');
  return (await res.json()) as { status: number; code: string; detail: string; title: string };
}

describe('strict mode', () => {
  let sandbox: TestSandbox;
  let probes: Probes;
  let key: TestSigningKey;
  beforeEach(async () => ({ sandbox, probes, key } = await setUp('strict')));

  const refused = async (res: Response, code: string) => {
    expect(res.status).toBe(400);
    const problem = await problemOf(res);
    expect(problem).toMatchObject({ status: 400, title: 'Invalid request', code });
    expect(probes.effects).toEqual([]);
    return problem;
  };

  it('accepts a signed GET', async () => {
    const res = await sendSigned(sandbox, key, 'GET', '/v1/chains');
    expect(res.status).toBe(200);
    expect(res.headers.get('Sandbox-Warning')).toBeNull();
  });

  it('accepts the same signed GET again, and refuses it once its keyid names a new key', async () => {
    const headers = await signedHeaders(key, 'GET', `${HARNESS_ORIGIN}/v1/chains`);
    expect((await sandbox.request('GET', '/v1/chains', { headers })).status).toBe(200);
    expect((await sandbox.request('GET', '/v1/chains', { headers })).status).toBe(200);
    await registerSigningKey(sandbox, newSigningKey(key.keyId));
    const problem = await refused(await sandbox.request('GET', '/v1/chains', { headers }), 'invalid_signature');
    expect(problem.detail).toMatch(/does not verify/);
  });

  it('accepts a signed GET with a query string (the query is not a required component)', async () => {
    const res = await sendSigned(sandbox, key, 'GET', '/v1/assets?chain=eip155:300');
    expect(res.status).toBe(200);
    expect(await res.json()).not.toEqual([]);
  });

  it('accepts a signed POST with a body, its digest and an idempotency key', async () => {
    const res = await sendSigned(sandbox, key, 'POST', '/v1/probes', { body: BODY });
    expect(res.status).toBe(201);
    expect(probes.effects).toEqual([BODY]);
  });

  it('accepts a signed POST on a real resource', async () => {
    const res = await sendSigned(sandbox, key, 'POST', '/v1/customers', { body: { chainId: testWallet('signed post').chainId, externalId: 'signed-1' } });
    expect(res.status).toBe(201);
  });

  it('accepts sha-256 digests, and both digests together', async () => {
    expect((await sendSigned(sandbox, key, 'POST', '/v1/probes', { body: BODY, digest: ['sha-256'] })).status).toBe(201);
    expect((await sendSigned(sandbox, key, 'POST', '/v1/probes', { body: BODY, digest: ['sha-256', 'sha-512'] })).status).toBe(201);
    expect(probes.effects).toHaveLength(2);
  });

  it('accepts extra covered components and an expires in the future', async () => {
    const res = await sendSigned(sandbox, key, 'POST', '/v1/probes?x=1', {
      body: BODY,
      components: ['@method', '@authority', '@path', '@query', 'content-digest', 'content-type', 'idempotency-key'],
      expires: new Date(Date.now() + 60_000),
    });
    expect(res.status).toBe(201);
  });

  it('verifies ECDSA signatures whatever the parity of s (OpenSSL does not normalise to low S)', async () => {
    // Sign with node:crypto until the signature has s > n/2, then also send its low-S twin (n - s).
    let highS: Buffer | undefined;
    const pickHighS = (data: Buffer) => {
      for (let i = 0; i < 64; i++) {
        const sig = cryptoSign('sha384', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
        if (BigInt(`0x${sig.subarray(48).toString('hex')}`) > P384_ORDER / 2n) return (highS = sig);
      }
      throw new Error('no high-S signature in 64 tries');
    };
    const toLowS = (data: Buffer) => {
      const sig = pickHighS(data);
      const s = P384_ORDER - BigInt(`0x${sig.subarray(48).toString('hex')}`);
      return Buffer.concat([sig.subarray(0, 48), Buffer.from(s.toString(16).padStart(96, '0'), 'hex')]);
    };
    expect((await sendSigned(sandbox, key, 'GET', '/v1/chains', { sign: pickHighS })).status).toBe(200);
    expect(highS).toBeDefined();
    expect((await sendSigned(sandbox, key, 'GET', '/v1/chains', { sign: toLowS })).status).toBe(200);
  });

  it('refuses an unsigned request', async () => {
    const problem = await refused(await sandbox.request('GET', '/v1/chains'), 'invalid_signature');
    expect(problem.detail).toMatch(/missing Signature-Input and Signature/);
  });

  it('refuses a keyid that is not registered', async () => {
    const problem = await refused(await sendSigned(sandbox, key, 'GET', '/v1/chains', { keyId: '5d2c9a4e-1111-4222-8333-444455556666' }), 'invalid_signature');
    expect(problem.detail).toContain('keyid "5d2c9a4e-1111-4222-8333-444455556666" is not a registered signing key');
  });

  it('refuses a key that was deleted', async () => {
    expect((await sandbox.request('DELETE', '/v1/auth/signing', { body: { signingKeyId: key.keyId } })).status).toBe(204);
    await refused(await sendSigned(sandbox, key, 'GET', '/v1/chains'), 'invalid_signature');
  });

  it('refuses a signature by another key under a registered keyid', async () => {
    const other = newSigningKey(key.keyId);
    const problem = await refused(await sendSigned(sandbox, other, 'GET', '/v1/chains'), 'invalid_signature');
    expect(problem.detail).toContain('does not verify');
  });

  it('refuses a body changed after signing (the digest no longer matches)', async () => {
    const res = await sendSigned(sandbox, key, 'POST', '/v1/probes', { body: BODY, tamper: (r) => ({ ...r, body: JSON.stringify({ ...BODY, size: 4 }) }) });
    const problem = await refused(res, 'invalid_content_digest');
    expect(problem.detail).toMatch(/Content-Digest sha-512 does not match the body/);
  });

  it('refuses a body and digest swapped after signing, showing the signature base it computed', async () => {
    const forged = JSON.stringify({ ...BODY, size: 4 });
    let sent!: { headers: Record<string, string>; body: string | undefined };
    const res = await sendSigned(sandbox, key, 'POST', '/v1/probes', {
      body: BODY,
      tamper: (r) => (sent = { headers: { ...r.headers, 'Content-Digest': digestHeader(forged) }, body: forged }),
    });
    const problem = await refused(res, 'invalid_signature');
    // The base an independent implementation derives for the request as received.
    const input = sent.headers['Signature-Input']!;
    const components = [...input.matchAll(/"([^"]+)"/g)].map((m) => m[1]!).filter((c) => c.startsWith('@') || c === 'content-digest');
    const expectedBase = httpbis.formatSignatureBase([
      ...httpbis.createSignatureBase({ fields: components }, { method: 'POST', url: `${HARNESS_ORIGIN}/v1/probes`, headers: sent.headers }),
      ['"@signature-params"', [input.replace(/^sig=/, '')]],
    ]);
    expect(problem.detail).toContain(expectedBase);
    expect(problem.detail).toContain(`"content-digest": ${digestHeader(forged)}`);
  });

  it('refuses an expired signature', async () => {
    const created = new Date(Date.now() - 600_000);
    const problem = await refused(
      await sendSigned(sandbox, key, 'GET', '/v1/chains', { created, expires: new Date(Date.now() - 300_000) }),
      'invalid_signature',
    );
    expect(problem.detail).toMatch(/the signature expired at \d+/);
  });

  it('refuses a signature created more than 5 minutes in the future, and accepts one just inside', async () => {
    const problem = await refused(await sendSigned(sandbox, key, 'GET', '/v1/chains', { created: new Date(Date.now() + 6 * 60_000) }), 'invalid_signature');
    expect(problem.detail).toMatch(/more than 5 minutes in the future/);
    expect((await sendSigned(sandbox, key, 'GET', '/v1/chains', { created: new Date(Date.now() + 4 * 60_000) })).status).toBe(200);
  });

  it('compares created/expires with the wall clock, not the sandbox clock', async () => {
    // The harness clock is frozen in 2026-03; time travel a year ahead must not break fresh signatures.
    await sandbox.deps.services.scheduler.advance(sandbox.deps.clock.now() + 365 * 86_400_000);
    const { token } = sandbox.deps.services.auth.issueToken(DEFAULT_API_KEY, DEFAULT_API_SECRET);
    const res = await sendSigned(sandbox, key, 'GET', '/v1/chains', { token });
    expect(res.status).toBe(200);
  });

  it('refuses a signature without created', async () => {
    const problem = await refused(await sendSigned(sandbox, key, 'GET', '/v1/chains', { created: null }), 'invalid_signature');
    expect(problem.detail).toMatch(/no created parameter/);
  });

  it('refuses a signature that does not cover the required components', async () => {
    const problem = await refused(
      await sendSigned(sandbox, key, 'POST', '/v1/probes', { body: BODY, components: ['@method', '@authority', '@path'] }),
      'invalid_signature',
    );
    expect(problem.detail).toMatch(/missing "content-digest"/);
    const get = await problemOf(await sendSigned(sandbox, key, 'GET', '/v1/chains', { components: ['@method', '@path'] }));
    expect(get.detail).toMatch(/missing "@authority"/);
  });

  it('refuses a DER-encoded signature with a clear reason', async () => {
    const der = (data: Buffer) => cryptoSign('sha384', data, key.privateKey);
    const problem = await refused(await sendSigned(sandbox, key, 'GET', '/v1/chains', { sign: der }), 'invalid_signature');
    expect(problem.detail).toMatch(/must be 96 bytes of raw r\|\|s \(not DER\)/);
  });

  it('refuses another algorithm and unreadable signature headers', async () => {
    const headers = await signedHeaders(key, 'GET', `${HARNESS_ORIGIN}/v1/chains`);
    const cases: [Record<string, string>, RegExp][] = [
      [{ ...headers, 'Signature-Input': headers['Signature-Input']!.replace('ecdsa-p384-sha384', 'ecdsa-p256-sha256') }, /alg must be "ecdsa-p384-sha384"/],
      [{ ...headers, 'Signature-Input': 'sig=(' }, /not a Structured Fields dictionary/],
      [{ ...headers, Signature: 'sig=abc' }, /not a byte sequence/],
      [{ ...headers, Signature: 'other=:AAAA:' }, /no "sig" member/],
      [{ ...headers, 'Signature-Input': `${headers['Signature-Input']}, sig2=("@method");created=1` }, /exactly one signature/],
      [{ ...headers, 'Signature-Input': headers['Signature-Input']!.replace('"@path"', '"@nonsense"') }, /missing "@path"/],
      [{ ...headers, 'Signature-Input': headers['Signature-Input']!.replace('"@path"', '"@path" "@nonsense"') }, /"@nonsense" is not supported/],
      [{ ...headers, 'Signature-Input': headers['Signature-Input']!.replace('"@path"', '"@path" "x-absent"') }, /"x-absent" is not a header/],
      [{ ...headers, 'Signature-Input': headers['Signature-Input']!.replace(/created=\d+/, 'created="soon"') }, /created must be an integer/],
    ];
    for (const [sent, reason] of cases) {
      const res = await sandbox.request('GET', '/v1/chains', { headers: sent });
      expect(res.status, String(reason)).toBe(400);
      const problem = await problemOf(res);
      expect(problem.code).toBe('invalid_signature');
      expect(problem.detail).toMatch(reason);
    }
  });

  it('refuses a mutation without an Idempotency-Key, or with one that is not a UUID', async () => {
    const missing = await refused(await sendSigned(sandbox, key, 'POST', '/v1/probes', { body: BODY, idempotencyKey: false }), 'missing_idempotency_key');
    expect(missing.detail).toMatch(/POST requests need an Idempotency-Key/);
    const invalid = await refused(await sendSigned(sandbox, key, 'POST', '/v1/probes', { body: BODY, idempotencyKey: 'order-42' }), 'invalid_idempotency_key');
    expect(invalid.detail).toContain('"order-42"');
  });

  it('refuses a body without a Content-Digest, and a digest of an unsupported algorithm', async () => {
    await refused(
      await sendSigned(sandbox, key, 'POST', '/v1/probes', { body: BODY, digest: false, components: ['@method', '@authority', '@path'] }),
      'invalid_content_digest',
    );
    const body = JSON.stringify(BODY);
    const md5 = await sendSigned(sandbox, key, 'POST', '/v1/probes', {
      body,
      headers: { 'Content-Digest': 'md5=:AAAA:' },
      digest: false,
      components: ['@method', '@authority', '@path', 'content-digest'],
    });
    expect((await refused(md5, 'invalid_content_digest')).detail).toMatch(/no supported algorithm/);
  });

  it('does not check /auth requests', async () => {
    const res = await sandbox.request('POST', '/v1/auth/token', { token: false, body: { apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET } });
    expect(res.status).toBe(200);
  });
});
