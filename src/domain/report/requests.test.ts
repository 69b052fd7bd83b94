/**
 * The go-live report's checks of the client (docs/go-live.md: Before you go live): a retry paired with
 * its failure by key or body and never by method and path alone, Retry-After measured on the
 * machine's clock, duplicates made by retries, token bursts counted from the client's notice, and
 * signatures judged only where verification ran.
 */
import { describe, expect, it } from 'vitest';
import { checks, request, write } from '../../testing/report-records.js';

const K1 = '00000000-0000-4000-8000-000000000001';
const K2 = '00000000-0000-4000-8000-000000000002';
const failed503 = (at: number, key: string | undefined, body: string, retryAfter?: number, effect: 'before' | 'after' = 'before') =>
  write(at, 503, key, body, { fault: { status: 503, effect, ...(retryAfter !== undefined && { retryAfter }) } });

describe('retries', () => {
  it('pairs a retry by its key, not by method and path: another journey writing between is not blamed', () => {
    const report = checks([failed503(0, K1, 'alice', 1), write(10, 201, K2, 'bob'), write(1100, 201, K1, 'alice', { replayed: false })]);
    expect(report.retries).toMatchObject({ status: 'pass', evidence: { failures: 1, retried: 1, sameKey: 1, retryAfter: { asked: 1, honoured: 1 } } });
    expect(report['idempotency-keys']!.status).toBe('pass');
  });

  it('fails a retry sooner than Retry-After on the machine clock, whatever the sandbox clock said', () => {
    // Every entry has the same sandbox time (a frozen clock); the machine's clock saw 0.1 s.
    const report = checks([failed503(0, K1, 'alice', 3), write(105, 201, K1, 'alice')]);
    expect(report.retries).toMatchObject({ status: 'fail', evidence: { retryAfter: { asked: 1, honoured: 0 } } });
    expect((report.retries!.evidence.problems as { why: string }[])[0]!.why).toMatch(/0\.10 s after the answer, sooner than Retry-After: 3/);
    expect(report.retries!.finding).toContain('not retried as it should be');
  });

  it('finds a retry under a new key by its body, and fails it in retries and idempotency-keys', () => {
    const report = checks([failed503(0, K1, 'alice'), write(1000, 201, K2, 'alice')]);
    expect(report.retries).toMatchObject({
      status: 'fail',
      evidence: { problems: [{ requestId: expect.any(String), why: expect.stringContaining('under a new key') }] },
    });
    expect(report['idempotency-keys']).toMatchObject({ status: 'fail', evidence: { retriesUnderNewKey: 1 } });
  });

  it('fails a write never retried, and forgives a client that gave up after retrying', () => {
    expect(checks([failed503(0, K1, 'alice')]).retries).toMatchObject({ status: 'fail', evidence: { problems: [{ why: 'answered 503, never retried' }] } });
    const gaveUp = checks([failed503(0, K1, 'alice'), failed503(1000, K1, 'alice'), failed503(2000, K1, 'alice')]);
    expect(gaveUp.retries).toMatchObject({ status: 'pass', evidence: { failures: 3, retried: 2, gaveUp: 1 } });
  });

  it('says when Retry-After could not be measured, rather than pass', () => {
    const report = checks([
      { ...failed503(0, K1, 'alice', 2), real: undefined },
      { ...write(0, 201, K1, 'alice'), real: undefined },
    ]);
    expect(report.retries).toMatchObject({ status: 'not judged', notJudged: [{ what: expect.stringContaining('Retry-After') }] });
  });

  it('is not exercised when no write failed', () => {
    expect(checks([write(0, 201, K1, 'alice'), request({ at: 5, method: 'GET', path: '/v1/customers', status: 503 })]).retries!.status).toBe('not exercised');
  });
});

describe('idempotency-keys', () => {
  it('fails writes without a key or with one that is not a UUID, with --verify off too', () => {
    const report = checks([write(0, 201, undefined, 'a'), write(10, 201, 'not-a-uuid', 'b')], { verify: 'off' });
    expect(report['idempotency-keys']).toMatchObject({ status: 'fail', evidence: { writes: 2, withoutKey: 1, invalidKey: 1 } });
  });

  it('flags the duplicate a client made by retrying a timed-out write under a new key', () => {
    // The first took 12 s to answer (a latency fault); the client gave up at 10 s and sent it again.
    const report = checks([write(0, 201, K1, 'alice', { took: 12_000 }), write(10_000, 201, K2, 'alice')]);
    expect(report['idempotency-keys']).toMatchObject({
      status: 'fail',
      evidence: { duplicates: 1, problems: [{ why: expect.stringContaining('sent before the first was answered') }] },
    });
    // And after a failure that had committed (effect "after"), with no key at all.
    const after = checks([failed503(0, undefined, 'bob', undefined, 'after'), write(1000, 201, undefined, 'bob')]);
    expect(after['idempotency-keys']!.evidence).toMatchObject({ duplicates: 1 });
  });

  it('does not count the same body written again after the first succeeded: two on purpose', () => {
    expect(checks([write(0, 201, K1, 'card'), write(100, 201, K2, 'card')])['idempotency-keys']!.status).toBe('pass');
  });
});

describe('token-renewal', () => {
  const expired = (at: number, took = 2) =>
    request({
      at,
      took,
      method: 'GET',
      path: '/v1/customers',
      status: 401,
      problem: { code: 'not_authorised', detail: 'the token expired at 2026-01-01T10:00:00.000Z (sandbox time)' },
    });
  const token = (at: number, took?: number) => request({ at, took, method: 'POST', path: '/v1/auth/token', status: 200 });
  const ok = (at: number) => request({ at, method: 'GET', path: '/v1/customers', status: 200 });

  it('counts no burst for calls already on their way, however many journeys ran at once', () => {
    // Six journeys sent their calls over 6 ms, some after the first 401 was answered (the client had not read it yet); one renewal.
    const six = [0, 1, 2, 3, 4, 5].map((i) =>
      request({ at: i, took: 2, method: 'GET', path: `/v1/customers/c${i}`, status: 401, problem: expired(0).problem }),
    );
    const report = checks([...six, token(7), ok(10), ok(10.2), ok(10.4)]);
    expect(report['token-renewal']).toMatchObject({ status: 'pass', evidence: { expired: 6, expiries: 1, renewed: 1, longestKnowing: 0 } });
  });

  it('counts a call sent with the old token after the client asked for a new one', () => {
    const late = (at: number) => request({ at, method: 'GET', path: `/v1/accounts/a${at}`, status: 401, problem: expired(0).problem });
    expect(checks([expired(0), token(5, 20), late(10), late(11), late(12), ok(30)])['token-renewal']).toMatchObject({
      status: 'fail',
      evidence: { longestKnowing: 3 },
    });
  });

  it('does not take a stale 401 after the renewal, the client served since, for never renewing', () => {
    expect(checks([expired(0), token(5), expired(40), ok(50)])['token-renewal']).toMatchObject({ status: 'pass', evidence: { expiries: 2, renewed: 1 } });
  });

  it('a 401 answered after the renewal, sent before it, belongs to the same expiry', () => {
    expect(checks([expired(0), expired(1, 30), token(5), ok(12)])['token-renewal']).toMatchObject({ status: 'pass', evidence: { expiries: 1 } });
  });

  it('fails a call sent again and again with the expired token, and never renewing', () => {
    const burst = checks([expired(0), expired(10), expired(20), expired(30), token(40), ok(50)]);
    expect(burst['token-renewal']).toMatchObject({ status: 'fail', evidence: { longestKnowing: 3 } });
    expect(burst['token-renewal']!.finding).toMatch(/^3 401s for calls sent again with the expired token after their own 401/);
    expect(checks([expired(0), expired(10)])['token-renewal']).toMatchObject({ status: 'fail', finding: expect.stringContaining('never got a new one') });
  });

  it('fails the same call sent again after its own 401, and again after that one: a chain is never forgiven', () => {
    const chain = checks([expired(0), expired(10), expired(20), token(30), ok(40)]);
    expect(chain['token-renewal']).toMatchObject({ status: 'fail', evidence: { longestKnowing: 2 } });
    expect(chain['token-renewal']!.finding).toMatch(/^GET \/v1\/customers was sent again with the expired token after its own 401 came back, and again/);
    // Two journeys that each sent the call again at once, in flight together: forgiven.
    const together = checks([expired(0), expired(10, 5), expired(11, 5), token(30), ok(40)]);
    expect(together['token-renewal']).toMatchObject({ status: 'pass', evidence: { longestKnowing: 2 } });
  });

  it('is not judged when the run ended at the expiry', () => {
    expect(checks([ok(0), expired(10)])['token-renewal']).toMatchObject({
      status: 'not judged',
      notJudged: [{ why: expect.stringContaining('the run ended') }],
    });
  });
});

describe('signatures', () => {
  it('judges only requests verification ran on, and counts the others apart', () => {
    const lab = request({ at: 0, method: 'POST', path: '/v1/customers', status: 503, verified: undefined, fault: { status: 503, effect: 'before' } });
    const auth = request({
      at: 5,
      method: 'GET',
      path: '/v1/customers',
      status: 401,
      verified: undefined,
      problem: { code: 'not_authorised', detail: 'the token expired at …' },
    });
    const bad = request({
      at: 10,
      method: 'GET',
      path: '/v1/customers',
      status: 401,
      verification: { failures: [{ code: 'invalid_signature', detail: 'the signature does not verify with key "k".\nbase' }] },
    });
    const report = checks([lab, auth, bad, request({ at: 20, method: 'GET', path: '/v1/customers', status: 200 })]);
    expect(report.signatures).toMatchObject({
      status: 'fail',
      evidence: {
        requests: 4,
        checked: 2,
        answeredByFaultLab: 1,
        refusedAtAuthentication: 1,
        failed: 1,
        problems: [{ requestId: bad.requestId, why: 'the signature does not verify with key "k".' }],
      },
    });
  });

  it('is not judged when nothing reached verification, and says why', () => {
    const lab = request({ at: 0, method: 'GET', path: '/v1/customers', status: 503, verified: undefined, fault: { status: 503, effect: 'before' } });
    expect(checks([lab]).signatures).toMatchObject({ status: 'not judged', notJudged: [{ why: expect.stringContaining('API fault lab') }] });
    expect(checks([{ ...lab, fault: undefined, status: 200 }], { verify: 'off' }).signatures).toMatchObject({
      status: 'not judged',
      hint: 'start the sandbox with --verify warn or strict',
    });
  });
});

it('reports every check not exercised for a programme that saw nothing', () => {
  expect(Object.values(checks([])).map((c) => c.status)).toEqual(Array(8).fill('not exercised'));
});
