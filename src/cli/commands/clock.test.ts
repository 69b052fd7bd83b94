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
        '✓ clock now 2026-03-02T10:00:00.000Z, nothing fell due on the way',
        '✓ clock now 2026-04-01T00:00:00.000Z, nothing fell due on the way',
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

  it('says which programme a reset with --programme wiped', async () => {
    const sb = createTestSandbox();
    const { body } = await sb.json('POST', '/_sandbox/programmes', { token: false, body: { name: 'other' } });
    const ctx = cliContext(sb, { programme: body.id });
    await reset(ctx);
    expect(ctx.stdout()).toBe(`✓ programme ${body.id} reset (it was already empty)\n`);
  });
});

describe('clock advance, counting what ran', () => {
  /** A card's authorisations due one second apart: each capture is a due item. */
  async function dueItems(n: number) {
    const sb = createTestSandbox();
    const { body } = await sb.json('POST', '/_sandbox/seed', {
      token: false,
      body: { customers: [{ externalId: 'c', accounts: [{ currencies: ['EUR'], cards: [{}] }] }] },
    });
    const cardId = body.customers[0].accounts[0].cards[0].id as string;
    for (let i = 0; i < n; i++) {
      await sb.json('POST', `/_sandbox/simulator/cards/${cardId}/authorisation`, { token: false, body: { amount: '1.00', currency: 'EUR' } });
    }
    return sb;
  }

  it('says "1 due item" and "nothing fell due"', async () => {
    const sb = await dueItems(1);
    const ctx = cliContext(sb);
    await advanceClock(ctx, { by: '1s' });
    await advanceClock(ctx, { by: '1h' });
    await advanceClock(ctx, { by: '1s' });
    const [one, , none] = ctx.stdout().trimEnd().split('\n');
    expect(one).toBe('✓ clock now 2026-03-01T09:00:01.000Z, 1 due item ran on the way');
    expect(none).toBe('✓ clock now 2026-03-01T10:00:02.000Z, nothing fell due on the way');
  });

  it('shows how far a long advance has got on a terminal, and nothing otherwise', async () => {
    const sb = createTestSandbox();
    // The sandbox answers the progress polls as an advance under way would.
    const advancing = { to: '2026-04-01T00:00:00.000Z', ran: 1500 };
    let polls = 0;
    let finish = () => {};
    const ctx = cliContext(sb, { terminal: true });
    const client = Object.assign(Object.create(ctx.client) as typeof ctx.client, {
      advanceClock: () => new Promise((resolve) => (finish = () => resolve({ now: advancing.to, ran: 2000 }))),
      getClock: async () => {
        if (++polls === 2) finish();
        return { now: '2026-03-20T00:00:00.000Z', frozen: true, advancing };
      },
    });
    await advanceClock({ ...ctx, client }, { to: advancing.to });
    expect(ctx.stderr()).toContain('advancing to 2026-04-01T00:00:00.000Z: 1500 due items ran so far…');
    expect(ctx.stderr().endsWith('\r\x1b[2K')).toBe(true);
    expect(ctx.stdout()).toBe('✓ clock now 2026-04-01T00:00:00.000Z, 2000 due items ran on the way\n');

    for (const options of [{ terminal: false }, { terminal: true, json: true }]) {
      polls = 0;
      const quiet = cliContext(sb, options);
      const immediate = Object.assign(Object.create(quiet.client) as typeof quiet.client, {
        advanceClock: async () => ({ now: advancing.to, ran: 2000 }),
        getClock: async () => (++polls, { now: advancing.to, frozen: true }),
      });
      await advanceClock({ ...quiet, client: immediate }, { to: advancing.to });
      expect(quiet.stderr()).toBe('');
      expect(polls).toBe(0);
    }
  });
});

describe("the banner's clock", () => {
  it('tells frozen, real time, and an offset kept in the database', async () => {
    const { clockText } = await import('./start-sandbox.js');
    const now = Date.parse('2026-12-25T10:00:00Z');
    expect(clockText(true, now, 0)).toBe('frozen at 2026-12-25T10:00:00.000Z');
    expect(clockText(false, now, 0)).toBe('real time');
    expect(clockText(false, now, 30 * 86_400_000 + 5)).toBe('running at 2026-12-25T10:00:00.000Z, 30 d ahead of real time (kept in the database)');
    expect(clockText(false, now, 2.5 * 3_600_000)).toBe('running at 2026-12-25T10:00:00.000Z, 2.5 h ahead of real time (kept in the database)');
    expect(clockText(false, now, 90_000)).toBe('running at 2026-12-25T10:00:00.000Z, 90 s ahead of real time (kept in the database)');
  });

  it('tells a clock behind real time, as an imported snapshot leaves it, and says where it came from', async () => {
    const { clockText } = await import('./start-sandbox.js');
    const now = Date.parse('2026-01-01T09:00:00Z');
    expect(clockText(false, now, -3 * 86_400_000, 'from the imported snapshot')).toBe(
      'running at 2026-01-01T09:00:00.000Z, 3 d behind real time (from the imported snapshot)',
    );
  });
});
