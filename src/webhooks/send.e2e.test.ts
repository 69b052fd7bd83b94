/**
 * One signed attempt against a real loopback receiver: the headers, signatures that verify with
 * an independent RFC 9421 library and with node:crypto, tampering detected, the outcomes of
 * non-2xx answers, refused connections and receivers that hang, and what is kept of each answer.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateP384, keyFingerprintId } from '../signatures/keys.js';
import { startTestReceiver, type Receiver, type ReceivedRequest } from '../testing/receiver.js';
import { verifyWithLibrary, verifyWithNodeCrypto } from '../testing/webhook-verifiers.js';
import { createAgents, CUT_SHORT, sendAttempt, type Attempt } from './send.js';

const { privateKey, publicKey } = generateP384();
const keyId = keyFingerprintId(publicKey);
const EVENT_ID = '6f1c2a9e-3b7d-4e21-9a55-0c8d7e6f5a41';
const BODY = Buffer.from(JSON.stringify({ webhookType: 'card.updated', eventId: EVENT_ID, id: 'c1', status: 'active', name: 'ÆTHER ☃' }));

describe('sendAttempt', () => {
  let receiver: Receiver;
  const agents = createAgents(8);
  beforeAll(async () => {
    receiver = await startTestReceiver();
  });
  afterEach(() => receiver.answer(200));
  afterAll(async () => {
    agents.destroy();
    await receiver.close();
  });

  const attempt = (overrides: Partial<Attempt> = {}) =>
    sendAttempt({
      callbackUrl: `${receiver.url}/hooks/cards?tenant=7`,
      body: BODY,
      eventId: EVENT_ID,
      attempt: 1,
      signer: { keyId, privateKey },
      created: Math.floor(Date.now() / 1000),
      agents,
      ...overrides,
    });

  const last = (): ReceivedRequest => receiver.requests.at(-1)!;

  it('POSTs the body bytes unchanged with the contract headers; a 2xx is a delivery', async () => {
    const created = Math.floor(Date.now() / 1000);
    const outcome = await attempt({ attempt: 3, created });
    expect(outcome).toEqual({ statusCode: 200, durationMs: expect.any(Number), response: { contentType: 'application/json', body: '{}' } });
    const request = last();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hooks/cards?tenant=7');
    expect(request.body.equals(BODY)).toBe(true);
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(BODY.length),
      'content-digest': `sha-512=:${createHash('sha512').update(BODY).digest('base64')}:`,
      'signature-input': `sig=("@method" "@authority" "@path" "content-digest");created=${created};keyid="${keyId}";alg="ecdsa-p384-sha384"`,
      'sandbox-event-id': EVENT_ID,
      'sandbox-delivery-attempt': '3',
      host: new URL(receiver.url).host,
    });
    expect(request.headers.signature).toMatch(/^sig=:[A-Za-z0-9+/]{128}:$/); // 96 bytes r‖s
  });

  it('signs so that an RFC 9421 library and node:crypto both verify it', async () => {
    await attempt();
    expect(await verifyWithLibrary(last(), publicKey, keyId)).toBe(true);
    expect(verifyWithNodeCrypto(last(), publicKey, keyId)).toBe(true);
  });

  it('fails verification when the body, the digest or the signed path is tampered with', async () => {
    await attempt();
    const original = last();
    const tamperedBody = { ...original, body: Buffer.from(original.body.toString().replace('active', 'frozen')) };
    expect(await verifyWithLibrary(tamperedBody, publicKey, keyId)).toBe(false);
    expect(verifyWithNodeCrypto(tamperedBody, publicKey, keyId)).toBe(false);

    // A forger who also recomputes Content-Digest still cannot produce the signature.
    const digest = `sha-512=:${createHash('sha512').update(tamperedBody.body).digest('base64')}:`;
    const reDigested = { ...tamperedBody, headers: { ...original.headers, 'content-digest': digest } };
    expect(await verifyWithLibrary(reDigested, publicKey, keyId)).toBe(false);
    expect(verifyWithNodeCrypto(reDigested, publicKey, keyId)).toBe(false);

    const otherPath = { ...original, path: '/hooks/other' };
    expect(await verifyWithLibrary(otherPath, publicKey, keyId)).toBe(false);
    expect(verifyWithNodeCrypto(otherPath, publicKey, keyId)).toBe(false);

    const otherKey = generateP384().publicKey;
    expect(verifyWithNodeCrypto(original, otherKey, keyId)).toBe(false);
  });

  it('sends each attempt to its own callback URL, its credentials as Basic auth, as node:http makes of a URL', async () => {
    const other = await startTestReceiver();
    try {
      const { host } = new URL(other.url);
      const targets = [`${receiver.url}/a?x=1`, `http://us%20er:p%40ss@${host}/b`, `${receiver.url}/a?x=1`, `${other.url}/c?y=%20`];
      for (const callbackUrl of targets) await attempt({ callbackUrl });
      expect(receiver.requests.slice(-2).map((r) => r.path)).toEqual(['/a?x=1', '/a?x=1']);
      expect(other.requests.map((r) => [r.path, r.headers.authorization, r.headers.host])).toEqual([
        ['/b', `Basic ${Buffer.from('us er:p@ss').toString('base64')}`, host],
        ['/c?y=%20', undefined, host],
      ]);
      // What is signed is what was sent: the authority and path of each.
      for (const request of [...receiver.requests.slice(-2), ...other.requests]) expect(verifyWithNodeCrypto(request, publicKey, keyId)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('signs each attempt afresh with its own created time over the same bytes', async () => {
    await attempt({ attempt: 1, created: 1_800_000_000 });
    await attempt({ attempt: 2, created: 1_800_000_007 });
    const [a, b] = receiver.requests.slice(-2) as [ReceivedRequest, ReceivedRequest];
    expect(a.body.equals(b.body)).toBe(true);
    expect(a.headers['signature-input']).toContain('created=1800000000;');
    expect(b.headers['signature-input']).toContain('created=1800000007;');
    expect(a.headers.signature).not.toBe(b.headers.signature);
    for (const r of [a, b]) expect(verifyWithNodeCrypto(r, publicKey, keyId)).toBe(true);
  });

  it('keeps the Content-Type and the first 4 KiB of the answer, cut at a whole character', async () => {
    receiver.answer({ status: 500, contentType: 'text/plain; charset=utf-8', body: `Error: bad\n${'é'.repeat(3000)}` });
    const outcome = await attempt();
    expect(outcome.statusCode).toBe(500);
    const kept = outcome.response!.body!;
    expect(outcome.response!.contentType).toBe('text/plain; charset=utf-8');
    expect(kept.startsWith('Error: bad\n')).toBe(true);
    // 11 bytes of ASCII, then 2-byte characters: 4,096 bytes end half-way through one, which is left out.
    expect(Buffer.byteLength(kept)).toBe(4095);
    expect(kept.endsWith('é')).toBe(true);
    // The rest was still read: the next attempt reuses the connection and succeeds.
    receiver.answer(200);
    expect((await attempt()).statusCode).toBe(200);
  });

  it('keeps nothing of an empty answer without a Content-Type, and a duplicate signs anew within the same second', async () => {
    receiver.answer({ status: 204, body: '' });
    expect(await attempt()).toEqual({ statusCode: 204, durationMs: expect.any(Number) });
    receiver.answer(200);
    const created = Math.floor(Date.now() / 1000);
    await attempt({ created });
    await attempt({ created });
    await attempt({ created, fresh: true });
    const [a, b, c] = receiver.requests.slice(-3) as [ReceivedRequest, ReceivedRequest, ReceivedRequest];
    expect(b.headers.signature).toBe(a.headers.signature);
    expect(c.headers['signature-input']).toBe(a.headers['signature-input']);
    expect(c.headers.signature).not.toBe(a.headers.signature);
    expect(verifyWithNodeCrypto(c, publicKey, keyId)).toBe(true);
  });

  it.each([[201], [204], [301], [400], [404], [500], [503]])('reports a %i answer with its status code and no error', async (status) => {
    receiver.answer(status);
    const outcome = await attempt();
    expect(outcome.statusCode).toBe(status);
    expect(outcome.error).toBeUndefined();
  });

  it('reports a refused connection as an error without a status code', async () => {
    const closed = await startTestReceiver();
    const url = closed.url;
    await closed.close();
    const outcome = await attempt({ callbackUrl: `${url}/hooks` });
    expect(outcome.statusCode).toBeUndefined();
    expect(outcome.error).toMatch(/ECONNREFUSED/);
  });

  it('fails every attempt started together to a receiver that refuses connections with its refusal', async () => {
    const closed = await startTestReceiver();
    const url = closed.url;
    await closed.close();
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => attempt({ callbackUrl: `${url}/hooks`, attempt: i + 1 })));
    for (const outcome of outcomes) {
      expect(outcome.statusCode).toBeUndefined();
      expect(outcome.error).toMatch(/ECONNREFUSED/);
    }
  });

  it('delivers every attempt started together to a receiver with no idle connection, one cut short meanwhile', async () => {
    const fresh = await startTestReceiver();
    const cut = new AbortController();
    const first = attempt({ callbackUrl: `${fresh.url}/hooks`, signal: cut.signal });
    const others = Array.from({ length: 5 }, (_, i) => attempt({ callbackUrl: `${fresh.url}/hooks`, attempt: i + 2 }));
    cut.abort();
    expect((await first).error).toBe(CUT_SHORT);
    for (const outcome of await Promise.all(others)) expect(outcome.statusCode).toBe(200);
    expect(fresh.requests.map((r) => r.headers['sandbox-delivery-attempt']).sort()).toEqual(['2', '3', '4', '5', '6']);
    await fresh.close();
  });

  it('gives up on a receiver that hangs when the timeout passes, and closes the socket', async () => {
    const hanging = await startTestReceiver('hang');
    // Long enough that a busy machine signs and sends the request well within it; the duration
    // leaves out the signing, so it is at most the timeout, and more than half of it.
    const outcome = await attempt({ callbackUrl: `${hanging.url}/hooks`, timeoutMs: 2_000 });
    expect(hanging.requests).toHaveLength(1);
    expect(outcome).toEqual({ error: 'no response within 2 s', durationMs: expect.any(Number) });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(1_000);
    await expect.poll(() => hanging.connections).toBe(0);
    await hanging.close();
  });
});
