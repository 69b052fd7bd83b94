/** Configuration (issue §9): flags > CARD_SANDBOX_* environment > defaults; bad values name their source. */
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_API_KEY, OPTIONS, defaultConfig, resolveConfig } from '../config/index.js';

describe('resolveConfig', () => {
  it('uses the documented defaults', () => {
    expect(resolveConfig({}, {})).toEqual(defaultConfig());
    expect(defaultConfig()).toMatchObject({
      port: 4242,
      host: '127.0.0.1',
      db: ':memory:',
      env: 'sandbox',
      verify: 'warn',
      tokenTtlMs: 3_600_000,
      webhookTimeoutMs: 10_000,
      clock: undefined,
      apiKey: undefined,
      jsonLogs: false,
    });
  });

  it('takes flags over environment variables over defaults', () => {
    const env = { CARD_SANDBOX_PORT: '5000', CARD_SANDBOX_VERIFY: 'strict', CARD_SANDBOX_HOST: '0.0.0.0' };
    const config = resolveConfig({ port: '6000', jsonLogs: true }, env);
    expect(config).toMatchObject({ port: 6000, verify: 'strict', host: '0.0.0.0', jsonLogs: true, env: 'sandbox' });
  });

  it('treats an empty environment variable as unset', () => {
    expect(resolveConfig({}, { CARD_SANDBOX_PORT: '' }).port).toBe(4242);
  });

  it('reads durations, switches and credentials', () => {
    const config = resolveConfig(
      { tokenTtlMs: 'PT30M', apiKey: DEFAULT_API_KEY.toUpperCase(), apiSecret: 's' },
      { CARD_SANDBOX_PHYSICAL_CARDS: 'yes', CARD_SANDBOX_JSON_LOGS: 'false', CARD_SANDBOX_CLOCK: '2026-01-01T00:00:00Z' },
    );
    expect(config).toMatchObject({ tokenTtlMs: 1_800_000, physicalCards: true, jsonLogs: false, clock: '2026-01-01T00:00:00Z', apiSecret: 's' });
  });

  it('reads --webhook-timeout as a duration from 1 s to 1 h', () => {
    expect(resolveConfig({ webhookTimeoutMs: '30s' }, {}).webhookTimeoutMs).toBe(30_000);
    expect(resolveConfig({}, { CARD_SANDBOX_WEBHOOK_TIMEOUT: 'PT1H' }).webhookTimeoutMs).toBe(3_600_000);
    expect(resolveConfig({ webhookTimeoutMs: '1s' }, {}).webhookTimeoutMs).toBe(1000);
  });

  it('reads --webhook-faults into the faults it stands for', () => {
    expect(resolveConfig({ webhookFaults: 'duplicate=0.2,reorder=0.2,delay=2s-30s' }, {}).webhookFaults).toEqual({
      duplicate: 0.2,
      reorder: 0.2,
      delay: { minMs: 2000, maxMs: 30_000 },
    });
    expect(resolveConfig({}, { CARD_SANDBOX_WEBHOOK_FAULTS: 'fail.status=503,fail.times=3' }).webhookFaults).toEqual({
      fail: { status: 503, times: 3, remaining: 3 },
    });
  });

  it('reads --allowed-hosts as names, or all', () => {
    expect(resolveConfig({ allowedHosts: 'Sandbox.CI.test, .svc.local' }, {}).allowedHosts).toEqual(['sandbox.ci.test', '.svc.local']);
    expect(resolveConfig({}, { CARD_SANDBOX_ALLOWED_HOSTS: 'all' }).allowedHosts).toBe('all');
    expect(resolveConfig({}, {}).allowedHosts).toEqual([]);
    expect(() => resolveConfig({ allowedHosts: 'http://evil.example/' }, {})).toThrow('--allowed-hosts must be host names separated by commas');
  });

  it('reads --api-faults into its rules', () => {
    expect(resolveConfig({ apiFaults: '{"rules":[{"status":503,"times":2}]}' }, {}).apiFaults).toEqual({
      rules: [{ match: {}, fault: { status: 503, effect: 'before' }, rate: 1, times: 2, remaining: 2 }],
    });
  });

  it.each([
    [{ webhookFaults: 'duplicate=2' }, {}, '--webhook-faults duplicate must be a probability from 0 to 1 (in "duplicate=2")'],
    [{}, { CARD_SANDBOX_WEBHOOK_FAULTS: 'dupes=1' }, 'CARD_SANDBOX_WEBHOOK_FAULTS dupes is not a fault'],
    [
      { webhookFaults: 'delay=soon,fail.status=503' },
      {},
      '--webhook-faults delay must be a duration or a range of two, such as 5s or 2s-30s; fail give either times',
    ],
    [{ apiFaults: '{"rules":[{"status":404}]}' }, {}, `--api-faults rules.0.status must be one of 500, 502, 503, 504, 429 (in '{"rules":[{"status":404}]}')`],
    [{}, { CARD_SANDBOX_API_FAULTS: 'status=503' }, 'CARD_SANDBOX_API_FAULTS api faults is not JSON'],
    [{ port: '99999' }, {}, '--port must be an integer from 0 to 65535, got "99999"'],
    [{ port: '0x10' }, {}, '--port must be an integer'],
    [{}, { CARD_SANDBOX_PORT: 'http' }, 'CARD_SANDBOX_PORT must be an integer from 0 to 65535, got "http"'],
    [{ verify: 'loud' }, {}, '--verify must be one of strict, warn, off, got "loud"'],
    [{}, { CARD_SANDBOX_ENV: 'live' }, 'CARD_SANDBOX_ENV must be one of sandbox, production, got "live"'],
    [{ tokenTtlMs: '10 minutes' }, {}, '--token-ttl must be a duration'],
    [{ tokenTtlMs: '500ms' }, {}, 'at least 1s'],
    [{ webhookTimeoutMs: '999ms' }, {}, '--webhook-timeout must be a duration of at least 1s and at most 1h, got "999ms"'],
    [{}, { CARD_SANDBOX_WEBHOOK_TIMEOUT: '61m' }, 'CARD_SANDBOX_WEBHOOK_TIMEOUT must be a duration of at least 1s and at most 1h, got "61m"'],
    [{ webhookTimeoutMs: 'soon' }, {}, '--webhook-timeout must be a duration'],
    [{ clock: 'yesterday' }, {}, '--clock must be an ISO 8601 date or date-time'],
    [{ clock: '2026-02-30' }, {}, '--clock must be'],
    [{ apiKey: 'my-key', apiSecret: 's' }, {}, '--api-key must be a UUID, got "my-key"'],
    [{ signingKeyId: 'k1' }, {}, '--signing-key-id must be a UUID'],
    [{}, { CARD_SANDBOX_PHYSICAL_CARDS: 'maybe' }, 'CARD_SANDBOX_PHYSICAL_CARDS must be true or false, got "maybe"'],
    [{ journalSize: '-1' }, {}, '--journal-size must be an integer'],
    [{ apiKey: DEFAULT_API_KEY }, {}, '--api-key and --api-secret go together'],
    [{}, { CARD_SANDBOX_API_SECRET: 'only-the-secret' }, '--api-key and --api-secret go together'],
  ])('refuses %j / %j: %s', (flags, env, message) => {
    expect(() => resolveConfig(flags, env)).toThrow(ConfigError);
    expect(() => resolveConfig(flags, env)).toThrow(message);
  });

  it('documents every option with a flag, an environment variable and a line of help', () => {
    const keys = Object.keys(defaultConfig());
    expect(OPTIONS.map((o) => o.key).sort()).toEqual(keys.sort());
    for (const option of OPTIONS) {
      expect(option.flag).toMatch(/^--[a-z-]+( <[a-z-]+>)?$/);
      // Tracing's are OpenTelemetry's own variables (config/tracing.ts).
      expect(option.env).toMatch(/^(CARD_SANDBOX|OTEL)_[A-Z_]+$/);
      expect(option.doc.length).toBeGreaterThan(10);
    }
    expect(new Set(OPTIONS.map((o) => o.env)).size).toBe(OPTIONS.length);
  });
});
