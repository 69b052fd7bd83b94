/**
 * The request journal (docs/control-plane.md: Time travel and the control plane; docs/signatures.md: Request verification): each
 * entry keeps the problem it was answered with and what verification found — the failed checks,
 * the headers they read (never Authorization) and the signature base the sandbox computed — only
 * when something failed; GET /_sandbox/requests/stream sends each entry as it is written.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../cli/client.js';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { mountProbeRoutes } from '../../testing/probe-routes.js';
import { HARNESS_ORIGIN, newSigningKey, registerSigningKey, sendSigned, signedHeaders } from '../../testing/signer.js';
import { until } from '../../testing/wait.js';

const requests = async (sb: TestSandbox, query = '') => (await sb.json('GET', `/_sandbox/requests${query}`, { token: false })).body;

describe('the journal of a refused or warned request', () => {
  it('in strict mode, keeps the refusal, the headers received and the signature base the sandbox computed', async () => {
    const sb = createTestSandbox({ verify: 'strict' });
    const key = newSigningKey();
    await registerSigningKey(sb, key);
    // Signed with another private key under the registered keyid: the signature does not verify.
    const impostor = newSigningKey(key.keyId);
    const headers = await signedHeaders(impostor, 'GET', `${HARNESS_ORIGIN}/v1/chains`);
    const res = await sb.request('GET', '/v1/chains', { headers });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { detail: string };

    const [entry] = await requests(sb);
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/v1/chains',
      status: 400,
      warnings: [],
      problem: { code: 'invalid_signature', detail: problem.detail },
    });
    const base = [
      '"@method": GET',
      '"@authority": 127.0.0.1:4242',
      '"@path": /v1/chains',
      `"@signature-params": ${headers['Signature-Input']!.replace(/^sig=/, '')}`,
    ].join('\n');
    expect(entry.verification).toEqual({
      outcome: 'refused',
      failures: [{ code: 'invalid_signature', detail: problem.detail }],
      headers: { 'Signature-Input': headers['Signature-Input'], Signature: headers.Signature },
      signatureBase: base,
    });
    expect(problem.detail).toContain(base);
    expect(JSON.stringify(entry)).not.toMatch(/authorization|bearer/i);
  });

  it('keeps the Host header as sent, the @authority of the base', async () => {
    const sb = createTestSandbox({ verify: 'strict', allowedHosts: ['api.example.test'] });
    await sb.request('GET', '/v1/chains', { headers: { Host: 'api.example.test:8080' } });
    const [entry] = await requests(sb);
    expect(entry.verification.headers).toEqual({ Host: 'api.example.test:8080' });
  });

  it('in warn mode, keeps every failed check, the headers read, and no base without a Signature-Input', async () => {
    const sb = createTestSandbox({ verify: 'warn' });
    mountProbeRoutes(sb);
    const res = await sb.request('POST', '/v1/probes', {
      body: { name: 'widget', size: 1 },
      headers: { 'Idempotency-Key': 'not-a-uuid', Cookie: 'session=secret' },
    });
    expect(res.status).toBe(201);
    const [entry] = await requests(sb);
    expect(entry.problem).toBeUndefined();
    expect(entry.warnings).toEqual(['invalid_content_digest', 'invalid_signature', 'invalid_idempotency_key']);
    expect(entry.verification).toEqual({
      outcome: 'warned',
      failures: [
        { code: 'invalid_content_digest', detail: 'the request has a body but no Content-Digest header' },
        { code: 'invalid_signature', detail: expect.stringMatching(/^missing Signature-Input and Signature/) },
        { code: 'invalid_idempotency_key', detail: 'Idempotency-Key must be a UUID, got "not-a-uuid"' },
      ],
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'not-a-uuid' },
    });
  });

  it('computes the base from what the signature covers even when the check fails before verifying', async () => {
    const sb = createTestSandbox({ verify: 'strict' });
    const key = newSigningKey();
    const res = await sendSigned(sb, key, 'GET', '/v1/chains');
    expect(res.status).toBe(400);
    const [entry] = await requests(sb);
    expect(entry.verification.failures[0].detail).toMatch(/is not a registered signing key/);
    expect(entry.verification.signatureBase).toMatch(
      /^"@method": GET\n"@authority": 127\.0\.0\.1:4242\n"@path": \/v1\/chains\n"@signature-params": \("@method"/,
    );
  });

  it('keeps the problem of any refusal, and nothing more for a request that went well', async () => {
    const sb = createTestSandbox({ verify: 'off' });
    await sb.json('GET', '/v1/chains');
    await sb.json('GET', '/v1/customers/3b241101-e2bb-4255-8caf-4136c566a962');
    const [missing, fine] = await requests(sb);
    expect(missing).toMatchObject({ status: 404, problem: { code: 'customer_not_found', detail: expect.any(String) } });
    expect(missing.verification).toBeUndefined();
    expect(Object.keys(fine).sort()).toEqual(['durationMs', 'method', 'path', 'real', 'replayed', 'requestId', 'status', 'time', 'warnings']);
  });
});

/** Follows GET /_sandbox/requests/stream in-process until `count` messages have come. */
async function follow(sb: TestSandbox, programme?: string) {
  const client = createClient({ url: 'http://127.0.0.1:4242' }, (input, init) => Promise.resolve(sb.app.request(input, init)));
  const abort = new AbortController();
  const messages: { event: string; id: string | undefined; data: any }[] = [];
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const following = client.follow('streamRequests', {
    programme,
    signal: abort.signal,
    onMessage: (m) => messages.push({ event: m.event, id: m.id, data: JSON.parse(m.data) }),
    onOpen: opened,
  });
  await open;
  return {
    messages,
    async stop() {
      abort.abort();
      await following;
    },
  };
}

describe('GET /_sandbox/requests/stream', () => {
  it("sends each of the programme's API requests as it is answered, and none of another programme's", async () => {
    const sb = createTestSandbox();
    const other = await sb.json('POST', '/_sandbox/programmes', { token: false, body: {} });
    const stream = await follow(sb);
    const elsewhere = await follow(sb, other.body.id);
    await sb.json('GET', '/v1/chains');
    await sb.json('GET', '/v1/nowhere');
    await until(() => stream.messages.length === 2, 'two requests on the stream');
    const journal = await requests(sb);
    expect(stream.messages.map((m) => [m.event, m.id])).toEqual([
      ['request', journal[1].requestId],
      ['request', journal[0].requestId],
    ]);
    expect(stream.messages.map((m) => m.data)).toEqual([journal[1], journal[0]]);
    // A reset clears the journal, and says so.
    await sb.json('POST', '/_sandbox/reset', { token: false });
    await until(() => stream.messages.length === 3, 'the reset on the stream');
    expect(stream.messages[2]).toEqual({ event: 'cleared', id: 'cleared', data: {} });
    await stream.stop();
    await elsewhere.stop();
    expect(elsewhere.messages).toEqual([]);
  });

  it('stops listening when the client goes away', async () => {
    const sb = createTestSandbox();
    const { journal } = sb.deps;
    const subscribe = journal.subscribe.bind(journal);
    let listening = 0;
    journal.subscribe = (listener) => {
      listening++;
      const off = subscribe(listener);
      return () => {
        listening--;
        return off();
      };
    };
    const stream = await follow(sb);
    expect(listening).toBe(1);
    await stream.stop();
    await until(() => listening === 0, 'the stream to unsubscribe');
  });

  it('refuses a malformed or unknown programme, and a client without the admin token', async () => {
    const sb = createTestSandbox({ adminToken: 'tok' });
    expect((await sb.json('GET', '/_sandbox/requests/stream', { token: false })).body).toMatchObject({ status: 401, code: 'not_authorised' });
    expect((await sb.json('GET', '/_sandbox/requests/stream?programme=x', { token: 'tok' })).body).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((await sb.json('GET', '/_sandbox/requests/stream?programme=3b241101-e2bb-4255-8caf-4136c566a962', { token: 'tok' })).body).toMatchObject({
      status: 404,
      code: 'programme_not_found',
    });
  });
});
