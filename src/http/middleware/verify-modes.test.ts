/** Request verification in warn and off mode (docs/signatures.md: Request verification): what gets through, and what is said. */
import { describe, expect, it } from 'vitest';
import { newSigningKey, sendSigned } from '../../testing/signer.js';
import { BODY, setUp } from '../../testing/verification.js';

describe('warn mode', () => {
  it('lets an unverifiable request through with one Sandbox-Warning and one log line per failure', async () => {
    const { sandbox, probes } = await setUp('warn');
    const res = await sandbox.request('POST', '/v1/probes', { body: BODY });
    expect(res.status).toBe(201);
    expect(probes.effects).toEqual([BODY]);
    const warning = res.headers.get('Sandbox-Warning') ?? '';
    const codes = [...warning.matchAll(/(?:^|, )(invalid_content_digest|invalid_signature|missing_idempotency_key): /g)].map((m) => m[1]);
    expect(codes).toEqual(['invalid_content_digest', 'invalid_signature', 'missing_idempotency_key']);
    const warnLines = sandbox.log.lines.filter((l) => l.level === 'warn');
    expect(warnLines).toHaveLength(3);
    expect(warnLines.map((l) => l.message.split(': ')[1])).toEqual(codes);
    expect(sandbox.deps.journal.list()[0]).toMatchObject({ path: '/v1/probes', status: 201, warnings: codes });
  });

  it('keeps the signature base readable in a single header line', async () => {
    const { sandbox, key } = await setUp('warn');
    const other = newSigningKey(key.keyId);
    const res = await sendSigned(sandbox, other, 'GET', '/v1/chains');
    expect(res.status).toBe(200);
    const warning = res.headers.get('Sandbox-Warning')!;
    expect(warning).toMatch(/^invalid_signature: the signature does not verify/);
    expect(warning).toContain('\\n"@signature-params": ');
  });

  it('adds warnings to refusals from the route too', async () => {
    const { sandbox } = await setUp('warn');
    const res = await sandbox.request('POST', '/v1/probes', { body: { name: '' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('Sandbox-Warning')).toMatch(/^invalid_content_digest: /);
  });

  it('adds nothing to a request that verifies', async () => {
    const { sandbox, key } = await setUp('warn');
    const res = await sendSigned(sandbox, key, 'POST', '/v1/probes', { body: BODY });
    expect(res.status).toBe(201);
    expect(res.headers.get('Sandbox-Warning')).toBeNull();
    expect(sandbox.log.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });
});

describe('off mode', () => {
  it('checks nothing and warns about nothing', async () => {
    const { sandbox, probes } = await setUp('off');
    const res = await sandbox.request('POST', '/v1/probes', { body: BODY, headers: { 'Content-Digest': 'sha-512=:AAAA:', 'Idempotency-Key': 'nope' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('Sandbox-Warning')).toBeNull();
    expect(probes.effects).toEqual([BODY]);
    expect(sandbox.log.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });
});
