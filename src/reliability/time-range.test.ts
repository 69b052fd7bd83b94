/**
 * The range of time (docs/control-plane.md: The range of time): every input that sets a clock — the
 * control plane's advance (`by`, `to`) and a new programme's `clock`, `--clock`, the CLI's and the
 * MCP server's `clock advance`, the companion's clock and its `advanceTo` — tried at its extremes.
 * Each is refused with a 400 (or, for an option, a start-up error) naming the limit, or taken when
 * it is in range; after every one, the programme and the sandbox answer as before: never a clock of
 * NaN, never a 500, no reset needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../client/operations.js';
import { advanceClock } from '../cli/commands/clock.js';
import { createSandbox } from '../companion/create-sandbox.js';
import { ConfigError, DEFAULT_API_KEY, DEFAULT_API_SECRET, resolveConfig } from '../config/index.js';
import { INSTANT_RANGE, MAX_INSTANT } from '../domain/instant.js';
import { connectedAgent } from '../testing/mcp.js';
import { cliContext } from '../testing/cli.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';

const RANGE = /1970-01-01T00:00:00\.000Z to 9999-12-31T23:59:59\.999Z/;

/** Everything that answered 500 for every tenant once the clock was NaN: each must answer as usual. */
async function stillServes(sb: TestSandbox, programme?: string) {
  const headers = programme ? { 'Sandbox-Programme': programme } : undefined;
  const health = await sb.json('GET', '/_sandbox/health', { token: false });
  expect(health.status).toBe(200);
  const clock = await sb.json('GET', '/_sandbox/clock', { token: false, ...(headers && { headers }) });
  expect(clock.status).toBe(200);
  expect(Date.parse(clock.body.now)).toBeLessThanOrEqual(MAX_INSTANT);
  expect((await sb.json('GET', '/_sandbox/programmes', { token: false })).status).toBe(200);
  expect((await sb.json('POST', '/v1/auth/token', { token: false, body: { apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET } })).status).toBe(200);
  return clock.body.now as string;
}

describe('the range of time, at every entry', () => {
  describe('POST /_sandbox/clock/advance', () => {
    it.each([
      // A calendar sum past what a Date holds (NaN before): refused, and the clock stays where it was.
      [{ by: 'P300000Y' }, /at most 100 years/],
      [{ by: '300000y' }, /at most 100 years/],
      [{ by: 'P999999999999M' }, /at most 100 years/],
      [{ by: 'P101Y' }, /at most 100 years/],
      [{ by: 'P99Y13M' }, /at most 100 years/],
      // Of the document's form, too large for any date: past 100 years (domain/time-travel.ts).
      [{ by: '99999999999999999999d' }, /must be at most 100 years/],
      [{ by: `${'9'.repeat(400)}s` }, /must be at most 100 years/],
      [{ by: 'PT1E400S' }, /must be a positive ISO 8601 duration/],
      [{ by: 'P1Y99999999999999999D' }, /must be a positive ISO 8601 duration|at most 100 years/],
      [{ to: '+275760-09-13T00:00:00.000Z' }, /RFC 3339 instant/],
      [{ to: '10000-01-01T00:00:00Z' }, /RFC 3339 instant/],
      [{ to: '2200-01-01T00:00:00Z' }, /at most 100 years/],
      [{ to: '1969-12-31T23:59:59Z' }, /never moves backwards/],
    ])('%j → 400 naming the limit, and nothing else changes', async (body, detail) => {
      const sb = createTestSandbox();
      const before = await stillServes(sb);
      const res = await sb.json('POST', '/_sandbox/clock/advance', { token: false, body });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(detail);
      expect(res.body.errors).toEqual([{ path: Object.keys(body)[0], message: expect.any(String) }]);
      expect(await stillServes(sb)).toBe(before);
      // The programme still moves: one real advance after the refused one.
      expect((await sb.json('POST', '/_sandbox/clock/advance', { token: false, body: { by: '1d' } })).status).toBe(200);
    });

    it('takes the clock to the last instant of the range, and refuses a millisecond more', async () => {
      const sb = createTestSandbox();
      const late = await sb.json('POST', '/_sandbox/programmes', { token: false, body: { clock: '9950-01-01T00:00:00Z' } });
      expect(late.status).toBe(201);
      const control = (body: unknown) => sb.json('POST', `/_sandbox/clock/advance?programme=${late.body.id}`, { token: false, body });
      expect((await control({ to: '9999-12-31T23:59:59.999Z' })).body.now).toBe('9999-12-31T23:59:59.999Z');
      for (const body of [{ by: '1ms' }, { by: 'P1M' }, { by: 'P99Y' }]) {
        const res = await control(body);
        expect(res.status).toBe(400);
        expect(res.body.detail).toMatch(/past 9999-12-31T23:59:59\.999Z/);
      }
      expect(await stillServes(sb, late.body.id)).toBe('9999-12-31T23:59:59.999Z');
    });
  });

  describe('POST /_sandbox/programmes {clock}', () => {
    it.each([
      ['1969-12-31T23:59:59.999Z', RANGE],
      ['1900-01-01', RANGE],
      ['0000-01-01T00:00:00Z', RANGE],
      ['10000-01-01T00:00:00Z', /ISO 8601 date/],
      ['+275760-09-13T00:00:00Z', /ISO 8601 date/],
      ['2026-02-30', /a day on the calendar/],
    ])('%s → 400 naming the limit, never clamped to 1970', async (clock, detail) => {
      const sb = createTestSandbox();
      const res = await sb.json('POST', '/_sandbox/programmes', { token: false, body: { clock } });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(detail);
      expect(res.body.errors).toEqual([{ path: 'clock', message: expect.any(String) }]);
      expect((await sb.json('GET', '/_sandbox/programmes', { token: false })).body).toHaveLength(1);
    });

    it.each(['1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z'])('%s, an end of the range, is taken as it is', async (clock) => {
      const sb = createTestSandbox();
      const res = await sb.json('POST', '/_sandbox/programmes', { token: false, body: { clock } });
      expect(res.status).toBe(201);
      expect(res.body.clock).toEqual({ now: clock, frozen: true });
      expect(await stillServes(sb, res.body.id)).toBe(clock);
    });
  });

  describe('--clock (CARD_SANDBOX_CLOCK)', () => {
    it.each([
      ['1969-12-31T23:59:59Z', RANGE],
      ['0001-01-01', RANGE],
      ['10000-01-01', /ISO 8601 date/],
      ['2026-13-01', /ISO 8601 date|calendar/],
    ])('%s stops the start, naming the limit', (clock, message) => {
      for (const [flags, env] of [
        [{ clock }, {}],
        [{}, { CARD_SANDBOX_CLOCK: clock }],
      ] as const) {
        let error: unknown;
        try {
          resolveConfig(flags, env);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).toMatch(message);
      }
    });

    it('takes both ends of the range', () => {
      expect(resolveConfig({ clock: '1970-01-01' }, {}).clock).toBe('1970-01-01');
      expect(resolveConfig({ clock: '9999-12-31T23:59:59.999Z' }, {}).clock).toBe('9999-12-31T23:59:59.999Z');
    });
  });

  describe('--token-ttl: an expiry on the sandbox clock', () => {
    it.each(['300000y', '99999999999999999999d', 'P36600D'])('%s stops the start', (ttl) => {
      expect(() => resolveConfig({ tokenTtlMs: ttl }, {})).toThrow(ConfigError);
    });
  });

  describe('the CLI and the MCP server', () => {
    it('`clock advance 300000y` is refused with the problem, and the clock answers after it', async () => {
      const sb = createTestSandbox();
      const error = (await advanceClock(cliContext(sb), { by: '300000y' }).catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.problem).toMatchObject({ status: 400, errors: [{ path: 'by', message: expect.stringMatching(/at most 100 years/) }] });
      await stillServes(sb);
    });

    it('the clock_advance tool answers a tool error naming the limit, and the clock answers after it', async () => {
      const sb = createTestSandbox();
      const mcp = await connectedAgent(cliContext(sb).client, 'time-range');
      try {
        for (const args of [{ by: 'P300000Y' }, { to: '+275760-09-13T00:00:00.000Z' }]) {
          const result = (await mcp.callTool({ name: 'clock_advance', arguments: args })) as { isError?: boolean; content: { text: string }[] };
          expect(result.isError).toBe(true);
          expect(result.content[0]!.text).toMatch(/400 invalid_request/);
        }
        const clock = (await mcp.callTool({ name: 'clock', arguments: {} })) as unknown as { structuredContent: { now: string } };
        expect(clock.structuredContent.now).toBe(await stillServes(sb));
      } finally {
        await mcp.close();
      }
    });
  });

  describe('the companion', () => {
    let sandbox: Awaited<ReturnType<typeof createSandbox>>;
    beforeAll(async () => {
      sandbox = await createSandbox({ clock: '2026-01-01T00:00:00Z' });
    });
    afterAll(() => sandbox.close());

    it.each([
      ['an invalid Date', new Date(Number.NaN)],
      ['the last Date there is', new Date(8.64e15)],
      ['a Date before 1970', new Date(-1)],
      ['an instant past 9999', '10000-01-01T00:00:00Z'],
    ])('advanceTo(%s) is refused with a 400, and the clock stays', async (_, instant) => {
      const before = await sandbox.clock.now();
      const error = (await sandbox.clock.advanceTo(instant).catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(400);
      expect(await sandbox.clock.now()).toEqual(before);
    });

    it.each(['P300000Y', '300000y'])('advance(%s) is refused with a 400, and the clock stays', async (by) => {
      const before = await sandbox.clock.now();
      await expect(sandbox.clock.advance(by)).rejects.toMatchObject({ status: 400 });
      expect(await sandbox.clock.now()).toEqual(before);
    });

    it.each([new Date(Number.NaN), new Date(-1), new Date(MAX_INSTANT + 1)])('createSandbox({ clock: %s }) is refused with a 400', async (clock) => {
      const error = (await createSandbox({ url: sandbox.url, clock }).catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(400);
    });
  });

  it('names the range in the manual', () => {
    expect(INSTANT_RANGE).toBe('from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z');
  });
});
