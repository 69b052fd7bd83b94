/**
 * A sandbox reachable from a network (docs/reliability.md: Open to a network): started on an
 * address other than loopback without --admin-token, it says so in its banner and its log; with an
 * admin token, the well-known default credentials are refused unless named; and no webhook goes to
 * a link-local address — where cloud metadata services answer — unless allowed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { assertBuilt, startSandbox, waitForOutput, type RunningCli } from '../testing/spawn.js';

describe('start on an address other than loopback', () => {
  let running: RunningCli | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  it('without --admin-token: a warning in the ready line and the log that the control plane is open to the network', async () => {
    assertBuilt();
    running = await startSandbox(['--host', '0.0.0.0']);
    const [ready, ...log] = (await waitForOutput(running.process, (out) => out.split('\n').length > 2)).trim().split('\n');
    const warning = expect.stringMatching(
      /^the control plane is open to every network this machine \(or container\) is on, with no --admin-token: .*docker run -p 127\.0\.0\.1:/,
    );
    expect(JSON.parse(ready!)).toMatchObject({ event: 'ready', warnings: [warning] });
    expect(log.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ level: 'warn', msg: warning }));
  });

  it('without --json: the banner says it, in a Warning row', async () => {
    assertBuilt();
    const { spawnCli } = await import('../testing/spawn.js');
    const started = spawnCli(['start', '--port', '0', '--host', '0.0.0.0']);
    try {
      const out = await waitForOutput(started, (stdout) => stdout.includes('Warning'));
      expect(out).toMatch(/Warning +the control plane is open to every network/);
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
    }
  });

  it.each([
    [['--host', '0.0.0.0', '--admin-token', 'a-long-admin-token'], 'with --admin-token'],
    [['--host', '127.0.0.1'], 'on loopback'],
  ])('%j: no warning (%s)', async (args) => {
    assertBuilt();
    running = await startSandbox(args);
    const ready = JSON.parse(running.process.stdout().split('\n')[0]!);
    expect(ready.warnings).toBeUndefined();
  });
});

describe('the default credentials with --admin-token', () => {
  const token = (sb: TestSandbox, body: unknown) => sb.json('POST', '/v1/auth/token', { token: false, body });

  it('are refused, saying how to name credentials of your own', async () => {
    const sb = createTestSandbox({ adminToken: 'a-long-admin-token' });
    const refused = await token(sb, { apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET });
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/--admin-token, so the well-known default credentials are refused: start it with --api-key and --api-secret/);
  });

  it('are taken when named (--api-key and --api-secret), as are credentials of your own', async () => {
    const named = createTestSandbox({ adminToken: 'a-long-admin-token', apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET });
    expect((await token(named, { apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET })).status).toBe(200);
    const own = createTestSandbox({ adminToken: 'a-long-admin-token', apiKey: '5f0e8c1a-7d2b-4e3f-9a8b-0c1d2e3f4a5b', apiSecret: 'a secret of mine' });
    expect((await token(own, { apiKey: '5f0e8c1a-7d2b-4e3f-9a8b-0c1d2e3f4a5b', apiSecret: 'a secret of mine' })).status).toBe(200);
  });

  it('are taken as before without --admin-token', async () => {
    expect((await token(createTestSandbox(), { apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET })).status).toBe(200);
  });
});

describe('callback addresses', () => {
  const subscribe = (sb: TestSandbox, callbackUrl: string) => sb.json('PUT', '/v1/webhooks', { body: { callbackUrl, types: ['card.updated'] } });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.0.1:8080/hooks',
    'http://[fe80::1]/hooks',
    'http://[::ffff:169.254.169.254]/hooks',
    'http://2852039166/hooks',
    'http://0xa9.0xfe.0xa9.0xfe/hooks',
  ])('%s, link-local: refused with a 400 naming the option that allows it', async (callbackUrl) => {
    const sb = createTestSandbox();
    const refused = await subscribe(sb, callbackUrl);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: 'callbackUrl', message: expect.stringMatching(/link-local .* --allow-link-local-callbacks/) }]);
    // Nor through the seed document or the control plane's mirror.
    expect((await sb.json('POST', '/_sandbox/seed', { token: false, body: { webhooks: [{ callbackUrl, types: [] }] } })).status).toBe(400);
    expect((await sb.json('GET', '/v1/webhooks')).body).toEqual([]);
  });

  it.each(['http://127.0.0.1:9/hooks', 'http://localhost:9/hooks', 'http://10.0.0.8/hooks', 'http://[::1]:9/hooks', 'https://example.test/hooks'])(
    '%s: taken',
    async (callbackUrl) => {
      expect((await subscribe(createTestSandbox(), callbackUrl)).status).toBe(200);
    },
  );

  it('with --allow-link-local-callbacks: taken', async () => {
    expect((await subscribe(createTestSandbox({ allowLinkLocalCallbacks: true }), 'http://169.254.169.254/hooks')).status).toBe(200);
  });

  it('a subscription to one that came in some other way is never connected to: its attempt fails, saying why', async () => {
    const sb = createTestSandbox({ allowLinkLocalCallbacks: true });
    expect((await subscribe(sb, 'http://169.254.169.254/hooks')).status).toBe(200);
    const saved = (await sb.json('POST', '/_sandbox/snapshots', { token: false, body: {} })).body;
    const file = await (await sb.request('GET', `/_sandbox/snapshots/${saved.id}/file`, { token: false })).text();
    // The same world in a sandbox that does not allow it: a delivery there fails at once, without a connection.
    const strict = createTestSandbox();
    expect((await strict.json('POST', '/_sandbox/snapshots/restore', { token: false, body: file })).status).toBe(200);
    await strict.json('POST', '/_sandbox/seed', {
      token: false,
      body: { customers: [{ externalId: 'one', accounts: [{ currencies: ['EUR'], cards: [{}] }] }] },
    });
    await strict.deps.services.scheduler.advance(strict.deps.clock.now() + 1000);
    const events = (await strict.json('GET', '/_sandbox/events?type=card.updated', { token: false })).body as { id: string }[];
    const detail = (await strict.json('GET', `/_sandbox/events/${events[0]!.id}`, { token: false })).body;
    expect(detail.deliveries[0].history[0]).toMatchObject({
      error: expect.stringMatching(/^the callback host must not be a link-local address/),
      durationMs: 0,
    });
  });
});
