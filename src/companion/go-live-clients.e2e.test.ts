/**
 * The go-live report (docs/go-live.md: Before you go live) of clients with one flaw each, written
 * outside the sandbox (src/testing/integrations/), each in a programme of its own in one sandbox:
 * each fails the check its flaw belongs to. Then the report of the whole run, every programme
 * together, deleted ones included.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Check } from '../domain/report/index.js';
import { integrationClient, type ClientFlaws } from '../testing/integrations/client.js';
import { journey, lookBack } from '../testing/integrations/journey.js';
import { createSandbox, type Sandbox } from './create-sandbox.js';
import type { ApiFaultRuleInput } from '../domain/api-faults.js';

const home = await createSandbox();
const made: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(made.map((s) => s.close()));
  await home.close();
});

/** A programme of its own, with these API faults, through which a client with these flaws makes a journey. */
async function run(flaws: ClientFlaws, rules: ApiFaultRuleInput[], after?: (sandbox: Sandbox) => Promise<void>) {
  const sandbox = await createSandbox({ url: home.url, clock: '2026-01-01T09:00:00Z' });
  made.push(sandbox);
  await sandbox.faults.api.set(rules);
  const client = await integrationClient(sandbox.url, sandbox, flaws);
  const journeyed = await journey(client, 'ann');
  if (after) {
    await after(sandbox);
    await lookBack(client, journeyed);
  }
  const report = await sandbox.report();
  return {
    sandbox,
    checks: Object.fromEntries(report.checks.map((c) => [c.id, c])) as Record<string, Check>,
    /** The checks that failed: those of the flaw, and no other. */
    failed: report.checks.filter((c) => c.status === 'fail').map((c) => c.id),
  };
}

describe('a client with one flaw fails the check it belongs to', () => {
  it('a new Idempotency-Key on every retry: retries and idempotency-keys fail, and the duplicate account it made is flagged', async () => {
    const { checks, failed } = await run({ newKeyPerAttempt: true }, [
      { match: { method: 'POST', path: '/v1/customers' }, status: 503, retryAfter: 1, times: 1 },
      // Created, then the answer lost: the retry under a new key makes a second account.
      { match: { operationId: 'createCustomerAccount' }, status: 503, retryAfter: 1, effect: 'after', times: 1 },
    ]);
    expect(checks.retries).toMatchObject({ status: 'fail', evidence: { failures: 2, retried: 2, sameKey: 0 } });
    expect((checks.retries!.evidence.problems as { why: string }[]).map((p) => p.why)).toEqual([
      expect.stringContaining('under a new key'),
      expect.stringContaining('under a new key'),
    ]);
    expect(checks['idempotency-keys']).toMatchObject({ status: 'fail', evidence: { retriesUnderNewKey: 2, duplicates: 1 } });
    expect(failed).toEqual(['idempotency-keys', 'retries']);
  });

  it('a new key after its own timeout: the duplicate it made is flagged, though every answer was a 201', async () => {
    // The abandoned request is answered 201 later: the report is read once it has been.
    const bothAnswered = async (sandbox: Sandbox) => {
      for (let tries = 0; tries < 300; tries++) {
        const journal = (await (await fetch(`${sandbox.url}/_sandbox/requests?programme=${sandbox.programme}`)).json()) as { path: string; status: number }[];
        if (journal.filter((e) => e.path.endsWith('/accounts') && e.status === 201).length === 2) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the abandoned request was never answered');
    };
    const { checks, failed } = await run(
      { newKeyPerAttempt: true, timeout: { ms: 2000, path: /\/accounts$/ } },
      [{ match: { operationId: 'createCustomerAccount' }, latency: '5s', times: 1 }],
      bothAnswered,
    );
    expect(checks['idempotency-keys']).toMatchObject({
      status: 'fail',
      evidence: { duplicates: 1, problems: [{ why: expect.stringContaining('sent before the first was answered') }] },
    });
    expect(checks.retries!.status).toBe('not exercised');
    expect(failed).toEqual(['idempotency-keys']);
  });

  it('a retry sooner than Retry-After while the programme clock is frozen: judged on the machine clock, and failed', async () => {
    const { checks, failed } = await run({ retryAfterMs: 100 }, [{ match: { method: 'POST', path: '/v1/customers' }, status: 429, retryAfter: 3, times: 1 }]);
    expect(checks.retries).toMatchObject({ status: 'fail', evidence: { retryAfter: { asked: 1, honoured: 0 } } });
    expect((checks.retries!.evidence.problems as { why: string }[])[0]!.why).toMatch(/after the answer, sooner than Retry-After: 3$/);
    expect(failed).toEqual(['retries']);
  });

  // Twice is a chain too: each sent after the last one's 401 came back, never in flight together.
  it.each([4, 2])(
    'the same call sent again %i times with an expired token: token-renewal fails',
    async (times) => {
      const { checks, failed } = await run({ retriesWithExpiredToken: times }, [], (sandbox) => sandbox.clock.advance('1h').then(() => undefined));
      expect(checks['token-renewal']).toMatchObject({ status: 'fail', evidence: { expired: times + 1, renewed: 1, longestKnowing: times } });
      expect(failed).toEqual(['token-renewal']);
    },
    60_000,
  );
});

describe('a report over the whole run', () => {
  it('covers every programme, those deleted since included, each problem naming its programme', async () => {
    const closed = made.shift()!;
    await closed.close();
    const all = await home.report({ programmes: 'all' });
    expect(all.programmes).toEqual(expect.arrayContaining([closed.programme, ...made.map((s) => s.programme)]));
    const checks = Object.fromEntries(all.checks.map((c) => [c.id, c])) as Record<string, Check>;
    expect(checks.retries!.status).toBe('fail');
    expect((checks.retries!.evidence.problems as { programme: string }[]).map((p) => p.programme)).toContain(closed.programme);
    expect(checks['token-renewal']!.status).toBe('fail');

    const two = await home.report({ programmes: [closed.programme, made[1]!.programme] });
    expect(two.programmes).toEqual([closed.programme, made[1]!.programme]);
    expect(two.checks.find((c) => c.id === 'token-renewal')!.status).toBe('not exercised');

    // A run: the programme asked and those made after it; `closed` was made before.
    const run = await made[0]!.report({ programmes: 'run' });
    expect(run.programmes).toEqual(made.map((s) => s.programme));
    expect((await fetch(`${home.url}/_sandbox/report?since=2026-01-01T00:00:00Z`)).status).toBe(400);
    const badSince = await fetch(`${home.url}/_sandbox/report?programmes=all&since=yesterday`);
    expect(badSince.status).toBe(400);
    expect(await badSince.json()).toMatchObject({
      code: 'invalid_request',
      errors: [{ path: 'since', message: expect.stringMatching(/ISO 8601 date or date-time/) }],
    });

    const missing = await fetch(`${home.url}/_sandbox/report?programmes=${closed.programme},00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'programme_not_found', detail: expect.stringContaining('00000000-0000-4000-8000-000000000000') });
    const bad = await fetch(`${home.url}/_sandbox/report?programmes=all,nope`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_request', errors: [{ path: 'programmes', message: expect.stringContaining('"all" is not one') }] });
  });
});
