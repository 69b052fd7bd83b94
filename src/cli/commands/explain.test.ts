/**
 * `explain <requestId>` and the `explain_request` tool's wording (docs/agents.md: Coding agents): what
 * answered a request — the client's mistake, or the API fault lab — and each failed check with how
 * to fix it; and `requests`, which lists the ids to explain.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../client/control.generated.js';
import { cliContext } from '../../testing/cli.js';
import { createTestSandbox } from '../../testing/harness.js';
import { CommandFailed } from '../client.js';
import { explain, explainRequest } from './explain.js';
import { listRequests } from './requests.js';

const entry = (over: Partial<JournalEntry>): JournalEntry => ({
  requestId: 'r1',
  time: '2026-03-01T09:00:00.000Z',
  method: 'POST',
  path: '/v1/customers',
  status: 401,
  durationMs: 2000,
  warnings: [],
  replayed: false,
  ...over,
});
const badSignature = {
  problem: { code: 'invalid_signature' as const, detail: 'the signature does not verify' },
  verification: { outcome: 'refused' as const, failures: [{ code: 'invalid_signature' as const, detail: 'the signature does not verify' }], headers: {} },
};

describe('explainRequest', () => {
  it('tells a real refusal that a latency fault only delayed as the refusal it is', () => {
    const x = explainRequest([entry({ ...badSignature, fault: { latency: '2s', effect: 'before', source: 1 } })], 'r1');
    expect(x.summary).toBe('refused with 401 invalid_signature: the signature does not verify (the API fault lab only delayed it: latency 2s, rule 1)');
    expect(x.failures[0]).toMatchObject({ code: 'invalid_signature', fix: expect.stringContaining('RFC 9421') });
  });

  it('tells an answer the fault lab made as the lab’s, naming what the checks also found', () => {
    const x = explainRequest(
      [
        entry({
          ...badSignature,
          status: 503,
          problem: { code: 'service_unavailable', detail: 'x' },
          fault: { status: 503, effect: 'before', source: 'header' },
        }),
      ],
      'r1',
    );
    expect(x.summary).toBe('answered by the API fault lab (the Sandbox-Fault header), not by a mistake of the client; its checks also found invalid_signature');
  });

  it('says that a write the fault lab answered after it ran (effect "after") was committed', () => {
    const x = explainRequest(
      [entry({ status: 503, problem: { code: 'service_unavailable', detail: 'x' }, fault: { status: 503, effect: 'after', source: 1 } })],
      'r1',
    );
    expect(x.summary).toBe(
      'answered by the API fault lab (rule 1), not by a mistake of the client; the write was committed before the fault answered: a retry with the same Idempotency-Key is answered as the write was, another key writes it twice',
    );
  });

  it('fails, saying where to look, for a request the journal does not hold', () => {
    expect(() => explainRequest([], 'r9')).toThrow(CommandFailed);
    expect(() => explainRequest([], 'r9')).toThrow(/request r9 is not in the journal: .* `card-sandbox requests`/);
  });
});

describe('explain and requests from the terminal', () => {
  async function journal() {
    const sb = createTestSandbox({ verify: 'warn' });
    await sb.json('GET', '/v1/customers', { headers: { Signature: 'sig=:AAAA:', 'Signature-Input': 'sig=("@method");keyid="k"' } });
    await sb.json('GET', '/v1/cards/3b241101-e2bb-4255-8caf-4136c566a962');
    return sb;
  }

  it('lists each request with its id, at most --limit, only the refused with --refused', async () => {
    const sb = await journal();
    // The REQUEST ID column of each row.
    const ids = (ctx: ReturnType<typeof cliContext>) =>
      ctx
        .stdout()
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split(/\s+/)[5]);
    const all = cliContext(sb);
    await listRequests(all);
    const journaled = sb.deps.journal.list();
    expect(ids(all)).toEqual(journaled.map((e) => e.requestId));
    const limited = cliContext(sb);
    await listRequests(limited, { limit: 1 });
    expect(ids(limited)).toEqual([journaled[0]!.requestId]);
    const refused = cliContext(sb, { json: true });
    await listRequests(refused, { refused: true });
    expect((JSON.parse(refused.stdout()) as JournalEntry[]).map((e) => [e.path, e.status])).toEqual([['/v1/cards/3b241101-e2bb-4255-8caf-4136c566a962', 404]]);
  });

  it('explains a request: the summary, each failed check with its fix, and the headers read', async () => {
    const sb = await journal();
    const warnedId = sb.deps.journal.list().find((e) => e.path === '/v1/customers')!.requestId;
    const ctx = cliContext(sb);
    await explain(ctx, warnedId);
    const out = ctx.stdout();
    expect(out).toMatch(new RegExp(`^GET /v1/customers 200 request ${warnedId}\\nanswered 200, with warnings the strict mode would refuse: invalid_signature`));
    expect(out).toContain('checks that failed\n  invalid_signature');
    expect(out).toContain('    fix: Sign "@method"');
    expect(out).toContain('\nheaders the checks read\n  Signature-Input: sig=("@method");keyid="k"\n  Signature: sig=:AAAA:\n');
    expect(out).toContain('\nsignature base the sandbox computed\n  "@method": GET\n');
    const json = cliContext(sb, { json: true });
    await explain(json, warnedId);
    expect(JSON.parse(json.stdout())).toMatchObject({ requestId: warnedId, status: 200, failures: [{ code: 'invalid_signature' }] });
  });
});
