import { describe, expect, it } from 'vitest';
import { cliContext } from '../../testing/cli.js';
import { createTestSandbox } from '../../testing/harness.js';
import { ApiError } from '../../client/operations.js';
import { advanceClock, showClock } from './clock.js';
import { listRequests } from './requests.js';
import { reset } from './reset.js';

describe('clock', () => {
  it('shows and advances the sandbox clock', async () => {
    const sb = createTestSandbox();
    const ctx = cliContext(sb);
    await showClock(ctx);
    await advanceClock(ctx, { by: '25h' });
    await advanceClock(ctx, { to: '2026-04-01T00:00:00Z' });
    expect(ctx.stdout()).toBe(
      [
        '2026-03-01T09:00:00.000Z (frozen: moves only with `clock advance`)',
        '✓ clock now 2026-03-02T10:00:00.000Z, 0 due items ran on the way',
        '✓ clock now 2026-04-01T00:00:00.000Z, 0 due items ran on the way',
        '',
      ].join('\n'),
    );
  });

  it('prints the JSON with --json and surfaces a refused duration', async () => {
    const sb = createTestSandbox();
    const ctx = cliContext(sb, { json: true });
    await advanceClock(ctx, { by: 'PT1H' });
    expect(JSON.parse(ctx.stdout())).toEqual({ now: '2026-03-01T10:00:00.000Z', ran: 0 });
    const error = (await advanceClock(ctx, { by: '-5m' }).catch((e: unknown) => e)) as ApiError;
    expect(error.problem!.errors).toEqual([{ path: 'by', message: expect.any(String) }]);
  });

  it('takes compound durations, and refuses 1M saying why', async () => {
    const sb = createTestSandbox();
    const ctx = cliContext(sb, { json: true });
    await advanceClock(ctx, { by: '1d12h' });
    expect(JSON.parse(ctx.stdout())).toEqual({ now: '2026-03-02T21:00:00.000Z', ran: 0 });
    const error = (await advanceClock(ctx, { by: '1M' }).catch((e: unknown) => e)) as ApiError;
    expect(error.problem).toMatchObject({
      detail: 'invalid body: by "1M" is ambiguous: write 1m for minutes or 1mo for months',
      errors: [{ path: 'by', message: '"1M" is ambiguous: write 1m for minutes or 1mo for months' }],
    });
  });
});

describe('reset and requests', () => {
  it('lists the journal, and reset wipes it and says what went', async () => {
    const sb = createTestSandbox();
    await sb.json('POST', '/_sandbox/seed', { token: false, body: { customers: [{ externalId: 'a' }] } });
    await sb.json('GET', '/v1/customers');
    await sb.json('GET', '/v1/cards/3b241101-e2bb-4255-8caf-4136c566a962');
    const listed = cliContext(sb);
    await listRequests(listed);
    expect(listed.stdout()).toMatch(
      /^TIME\s+METHOD\s+PATH\s+STATUS\s+MS\s+REQUEST ID\s+NOTES\n2026-03-01T09:00:00\.000Z\s+GET\s+\/v1\/cards\/\S+\s+404\s+\S+\s+[0-9a-f-]{36}\s+card_not_found\n2026-03-01T09:00:00\.000Z\s+GET\s+\/v1\/customers\s+200\s+\S+\s+[0-9a-f-]{36}\s*\n/,
    );
    const wiped = cliContext(sb);
    await reset(wiped);
    expect(wiped.stdout()).toBe('✓ sandbox reset, wiped events: 2, customers: 1, requests: 2\n');
    const empty = cliContext(sb);
    await reset(empty);
    await listRequests(empty);
    expect(empty.stdout()).toBe('✓ sandbox reset (it was already empty)\nno API requests yet\n');
  });
});

describe("the banner's clock", () => {
  it('tells frozen, real time, and an offset kept in the database', async () => {
    const { clockText } = await import('./start.js');
    const now = Date.parse('2026-12-25T10:00:00Z');
    expect(clockText(true, now, 0)).toBe('frozen at 2026-12-25T10:00:00.000Z');
    expect(clockText(false, now, 0)).toBe('real time');
    expect(clockText(false, now, 30 * 86_400_000 + 5)).toBe('running at 2026-12-25T10:00:00.000Z, 30 d ahead of real time (kept in the database)');
    expect(clockText(false, now, 2.5 * 3_600_000)).toBe('running at 2026-12-25T10:00:00.000Z, 2.5 h ahead of real time (kept in the database)');
    expect(clockText(false, now, 90_000)).toBe('running at 2026-12-25T10:00:00.000Z, 90 s ahead of real time (kept in the database)');
  });
});

  it('tells a clock behind real time, as an imported snapshot leaves it, and says where it came from', async () => {
    const { clockText } = await import('./start.js');
    const now = Date.parse('2026-01-01T09:00:00Z');
    expect(clockText(false, now, -3 * 86_400_000, 'from the imported snapshot')).toBe(
      'running at 2026-01-01T09:00:00.000Z, 3 d behind real time (from the imported snapshot)',
    );
  });
