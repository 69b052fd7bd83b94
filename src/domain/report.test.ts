/** The go-live report's checks that need a sequence of requests: retries after failures, and token renewal. */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../programmes/journal.js';
import { goLiveReport, type ReportInput } from './report.js';

let n = 0;
const entry = (fields: Partial<JournalEntry> & { method: string; path: string; status: number; second: number }): JournalEntry => {
  const { second, ...rest } = fields;
  return { requestId: `r${++n}`, time: new Date(Date.UTC(2026, 0, 1, 9, 0, second)).toISOString(), durationMs: 1, warnings: [], replayed: false, ...rest };
};
/** Oldest first here; the journal lists newest first. */
const report = (entries: JournalEntry[], input: Partial<ReportInput> = {}) =>
  Object.fromEntries(
    goLiveReport({ verify: 'strict', operations: [], attempts: [], statesReached: {}, requests: [...entries].reverse(), ...input }).checks.map((c) => [
      c.id,
      c,
    ]),
  );

describe('retries', () => {
  const failed = (second: number, key?: string, retryAfter?: number) =>
    entry({
      method: 'POST',
      path: '/v1/customers',
      status: 503,
      second,
      ...(key && { idempotencyKey: key }),
      ...(retryAfter !== undefined && { fault: { status: 503, retryAfter, effect: 'before', source: 1 } }),
    });
  const ok = (second: number, key?: string) => entry({ method: 'POST', path: '/v1/customers', status: 201, second, ...(key && { idempotencyKey: key }) });

  it('passes a retry with the same key after Retry-After', () => {
    expect(report([failed(0, 'k', 2), ok(3, 'k')]).retries).toMatchObject({ status: 'pass', evidence: { failures: 1 } });
  });

  it('fails a retry with a new key, one sooner than Retry-After, and no retry at all', () => {
    expect(report([failed(0, 'k'), ok(1, 'other')]).retries!.evidence.problems).toEqual([
      { requestId: expect.any(String), why: expect.stringContaining('with a new key') },
    ]);
    expect(report([failed(0, 'k', 5), ok(2, 'k')]).retries!.evidence.problems).toEqual([
      { requestId: expect.any(String), why: expect.stringContaining('sooner than Retry-After: 5 s') },
    ]);
    expect(report([failed(0, 'k')]).retries).toMatchObject({ status: 'fail', evidence: { problems: [{ why: 'not retried' }] } });
  });

  it('is not exercised when nothing failed', () => {
    expect(report([ok(0, 'k')]).retries!.status).toBe('not exercised');
  });
});

describe('token renewal', () => {
  const expired = (second: number) =>
    entry({
      method: 'GET',
      path: '/v1/customers',
      status: 401,
      second,
      problem: { code: 'not_authorised', detail: 'the token expired at 2026-01-01T10:00:00.000Z (sandbox time)' },
    });
  const token = (second: number) => entry({ method: 'POST', path: '/v1/auth/token', status: 200, second });

  it('passes one 401 followed by a new token', () => {
    expect(report([expired(0), token(1)])['token-renewal']).toMatchObject({ status: 'pass', evidence: { longestRun: 1, renewed: true } });
  });

  it('fails a burst of 401s, and never renewing', () => {
    expect(report([expired(0), expired(1), expired(2), token(3)])['token-renewal']).toMatchObject({ status: 'fail', evidence: { longestRun: 3 } });
    expect(report([expired(0)])['token-renewal']).toMatchObject({ status: 'fail', evidence: { renewed: false } });
  });
});

it('reports every check not exercised for a programme that saw nothing, and --verify off as the reason', () => {
  const checks = report([], { verify: 'off' });
  expect(Object.values(checks).map((c) => c.status)).toEqual(Array(8).fill('not exercised'));
  expect(checks.signatures!.hint).toContain('--verify');
});
