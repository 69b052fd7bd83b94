/**
 * The go-live report's checks of the receiver (docs/go-live.md: Before you go live): a forgery refused
 * only by a 4xx the receiver sent, each kind judged once tried; double processing judged when the
 * receiver says what it did, else not judged; and a report over several programmes.
 */
import { describe, expect, it } from 'vitest';
import { FORGERIES } from '../webhook-faults.js';
import { attempt, checks, write } from '../../testing/report-records.js';
import { goLiveReport } from './index.js';

const forged = (forgery: (typeof FORGERIES)[number], statusCode: number | null, durationMs = 3) =>
  attempt({ fault: 'forged', forgery, statusCode, durationMs, ...(statusCode === null && { error: 'no response within 10 s' }) });

describe('forged-deliveries', () => {
  it('passes a receiver that refused every kind with a 4xx', () => {
    const report = checks([], { attempts: FORGERIES.map((k) => forged(k, k === 'unsigned' ? 401 : 400)) });
    expect(report['forged-deliveries']).toMatchObject({ status: 'pass', evidence: { forged: 7, accepted: [], notRefused: [], neverTried: [] } });
  });

  it('names the kinds accepted, and counts a timeout or a 5xx as no refusal', () => {
    const attempts = FORGERIES.map((k) =>
      k === 'replayed' ? forged(k, 204) : k === 'other-key' ? forged(k, 503) : k === 'unsigned' ? forged(k, null, 10_000) : forged(k, 400),
    );
    const check = checks([], { attempts })['forged-deliveries']!;
    expect(check).toMatchObject({ status: 'fail', evidence: { accepted: ['replayed'], notRefused: ['other-key', 'unsigned'] } });
    expect(check.finding).toBe('accepted (2xx): replayed; not refused with a 4xx: other-key, unsigned');
    expect((check.evidence.problems as { why: string }[])[0]!.why).toMatch(/^replayed: accepted/);
  });

  it('fails a receiver that verifies nothing but answers slowly: no forgery was refused', () => {
    const attempts = FORGERIES.map((k) => forged(k, null, 10_000));
    expect(checks([], { attempts })['forged-deliveries']).toMatchObject({ status: 'fail', evidence: { notRefused: [...FORGERIES] } });
  });

  it('is not judged while some kinds were never tried, and an old forged attempt counts as a changed body', () => {
    const check = checks([], { attempts: [forged('unsigned', 400), attempt({ fault: 'forged', statusCode: 400 })] })['forged-deliveries']!;
    expect(check).toMatchObject({ status: 'not judged', evidence: { kinds: { 'body-changed': { tried: 1, refused: 1 } } } });
    expect(check.notJudged![0]!.what).toBe('forgeries never tried: other-key, unknown-keyid, created-past, created-future, replayed');
  });
});

describe('duplicates-and-order', () => {
  const sentTwice = (processed: [number | null, number | null], statusCode = 200) => {
    const first = attempt({ processed: processed[0] });
    return [first, attempt({ deliveryId: first.deliveryId, eventId: first.eventId, attempt: 2, fault: 'duplicate', processed: processed[1], statusCode })];
  };

  it('passes a receiver that said it acted once on each event sent twice', () => {
    expect(checks([], { attempts: [...sentTwice([1, 1]), attempt({ fault: 'reordered', processed: 1 })] })['duplicates-and-order']).toMatchObject({
      status: 'pass',
      evidence: { eventsSentTwice: 1, actedTwice: 0 },
    });
  });

  it('fails one that says it acted twice, or answered a duplicate with an error', () => {
    expect(checks([], { attempts: sentTwice([1, 2]) })['duplicates-and-order']).toMatchObject({ status: 'fail', evidence: { actedTwice: 1 } });
    expect(checks([], { attempts: sentTwice([1, 1], 500) })['duplicates-and-order']).toMatchObject({ status: 'fail', evidence: { notAcknowledged: 1 } });
  });

  it('does not pass a receiver that answered 2xx without saying what it did', () => {
    const check = checks([], { attempts: sentTwice([null, null]) })['duplicates-and-order']!;
    expect(check).toMatchObject({ status: 'not judged', hint: expect.stringContaining('Sandbox-Processed') });
    expect(check.notJudged![0]!.what).toBe('whether the receiver acted once on 1 event it was sent twice');
  });

  it('fails double processing told by a receiver even without the duplicate fault (a retry it acted on again)', () => {
    const first = attempt({ statusCode: 500, processed: 1 });
    const retry = attempt({ deliveryId: first.deliveryId, eventId: first.eventId, attempt: 2, processed: 2 });
    expect(checks([], { attempts: [first, retry] })['duplicates-and-order']).toMatchObject({ status: 'fail', evidence: { actedTwice: 1 } });
  });
});

describe('receiver-answers', () => {
  it('judges the receiver’s own answers only', () => {
    const attempts = [attempt({}), attempt({ fault: 'injected-status', statusCode: 503 }), forged('unsigned', 400), attempt({ statusCode: 500 })];
    expect(checks([], { attempts })['receiver-answers']).toMatchObject({ status: 'fail', evidence: { attempts: 2, failed: 1 } });
  });
});

describe('a report over several programmes', () => {
  const K = '00000000-0000-4000-8000-000000000001';
  it('pairs retries within a programme only, names the programme of each problem, and adds up coverage', () => {
    const failedHere = write(0, 503, K, 'alice', { fault: { status: 503, effect: 'before' } });
    const retryThere = write(1000, 201, K, 'alice');
    const report = goLiveReport({
      verify: 'strict',
      operations: [{ method: 'post', path: '/customers', operationId: 'createCustomer' }],
      now: 0,
      programmes: [
        { programme: 'p1', requests: [failedHere], attempts: [], statesReached: { customer: ['initiating'] } },
        { programme: 'p2', requests: [retryThere], attempts: [], statesReached: { customer: ['active'] } },
      ],
    });
    const retries = report.checks.find((c) => c.id === 'retries')!;
    expect(retries).toMatchObject({
      status: 'fail',
      evidence: { problems: [{ requestId: failedHere.requestId, programme: 'p1', why: 'answered 503, never retried' }] },
    });
    expect(report.programmes).toEqual(['p1', 'p2']);
    expect(report.coverage.operations[0]).toMatchObject({ calls: 2, statuses: { '503': 1, '201': 1 } });
    expect(report.coverage.states.find((s) => s.resource === 'customer')!.reached).toEqual(['initiating', 'active']);
    expect(report.span).toEqual({ from: new Date(failedHere.real!.received).toISOString(), to: new Date(retryThere.real!.answered).toISOString() });
    expect(report.summary).toEqual({ pass: 3, fail: 1, 'not judged': 0, 'not exercised': 4 });
  });

  it('is all not exercised with no programme', () => {
    const report = goLiveReport({ verify: 'strict', operations: [], now: 0, programmes: [] });
    expect(report.summary['not exercised']).toBe(8);
    expect(report.span).toBeUndefined();
  });
});
