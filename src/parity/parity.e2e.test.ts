import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient } from '../client/create-client.js';
import { createWallet } from '../companion/wallet.js';
import { startHostileUpstream, startParityUpstream, type ParityUpstream } from '../testing/parity-upstream.js';
import { runCommand } from '../testing/cli.js';
import { freePort, spawnCli, waitForOutput } from '../testing/spawn.js';
import { HUNG_MS, until } from '../testing/wait.js';
import { JOURNEY } from './journey.js';
import type { ParityReport } from './report.js';

// `card-sandbox parity` (docs/parity.md) against a second card-sandbox as the upstream, with its own
// credentials and signing key and strict verification: the same journey on both finds no
// difference, touches nothing it did not make, ends what it made, and says why when it cannot run.
// Each run goes through the CLI's own entry in this process, but the two Ctrl-C ones: a signal is
// about the built CLI, a process of its own.
let upstream: ParityUpstream;
beforeAll(async () => {
  upstream = await startParityUpstream();
});
afterAll(() => upstream?.stop());

const credentials = () => ['--upstream', `${upstream.sandbox.url}/v1`, '--api-key', upstream.apiKey, '--api-secret', upstream.apiSecret];
const withKey = () => [...credentials(), '--signing-key', upstream.privateKeyFile, '--signing-key-id', upstream.keyId];

const junit = (file: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(file, 'utf8')) as {
    testsuites: { testsuite: Record<string, string> & { testcase: { name: string; time: string; failure?: unknown; error?: unknown; skipped?: unknown }[] } };
  };

describe('against an upstream that is a card-sandbox', () => {
  test('finds no difference, touches nothing it did not make and ends what it made; its JSON, --out and JUnit agree', async () => {
    // What the upstream's account held before: a customer and a webhook parity must not touch.
    const client = createClient({
      baseUrl: upstream.sandbox.url,
      apiKey: upstream.apiKey,
      apiSecret: upstream.apiSecret,
      signingKey: { keyId: upstream.keyId, privateKey: upstream.privateKeyPem },
    });
    const theirs = await client.createCustomer({ chainId: createWallet().chainId, externalId: 'held-before' });
    const hook = await client.saveWebhook({ callbackUrl: 'http://127.0.0.1:9/held-before', types: ['card.updated'] });
    const before = { customer: await client.getCustomer(theirs.id), webhook: await client.getWebhook(hook.id) };

    const [xmlFile, jsonFile] = [join(upstream.dir, 'parity.xml'), join(upstream.dir, 'parity.json')];
    const run = await runCommand(['parity', ...withKey(), '--json', '--junit', xmlFile, '--out', jsonFile]);
    expect(run.stderr).toMatch(/^parity: \d+ steps against http:\/\/127\.0\.0\.1:\d+\/v1 \(API key [-0-9a-f]{36}\)/);
    const report = JSON.parse(run.stdout) as ParityReport;
    expect(report.steps.filter((s) => s.differences.length > 0)).toEqual([]);
    expect(run.code).toBe(0);

    // The document's shape, exactly.
    expect(Object.keys(report)).toEqual(['upstream', 'local', 'steps', 'summary']);
    expect(report.upstream).toBe(`${upstream.sandbox.url}/v1`);
    expect(report.local).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(report.summary).toEqual({ steps: JOURNEY.length, differing: 0 });
    expect(report.steps.map((s) => s.id)).toEqual(JOURNEY.map((s) => s.id));
    for (const step of report.steps) expect(Object.keys(step)).toEqual(['id', 'operationId', 'method', 'path', 'differences']);
    expect(report.steps.find((s) => s.id === 'create-card-1')).toMatchObject({
      operationId: 'createAccountCard',
      method: 'POST',
      path: '/v1/accounts/{accountId}/cards',
    });
    expect(JSON.parse(readFileSync(jsonFile, 'utf8'))).toEqual(report);
    expect(run.stderr).toContain(`wrote the JUnit report to ${xmlFile}\n`);
    expect(run.stderr).toContain(`wrote the JSON report to ${jsonFile}\n`);

    const suite = junit(xmlFile).testsuites.testsuite;
    expect(suite).toMatchObject({ tests: String(JOURNEY.length), failures: '0', errors: '0', skipped: '0' });
    expect(Number(suite.time)).toBeGreaterThan(0);
    expect(new Date(`${suite.timestamp}Z`).getTime()).not.toBeNaN();
    expect(suite.testcase.map((t) => t.name)).toEqual(report.steps.map((s) => `${s.id}: ${s.method} ${s.path}`));
    for (const t of suite.testcase) expect(Number.isFinite(Number(t.time))).toBe(true);

    // It sent nothing about what it did not make, changed no credential or key, and every request
    // it signed verified: the only refusals are the journey's own.
    const sent = (await upstream.journal()).filter((r) => r.path.startsWith('/v1/'));
    expect(sent.filter((r) => r.path.includes(theirs.id) || r.path.includes(hook.id)).map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(sent.filter((r) => r.path.startsWith('/v1/auth/') && r.path !== '/v1/auth/token')).toEqual([]);
    expect(sent.filter((r) => r.status === 400).map((r) => `${r.method} ${r.path.replace(/[-0-9a-f]{36}/, '{id}')}`)).toEqual([
      'POST /v1/customers',
      'POST /v1/customers',
      'PATCH /v1/simulator/authorisations/{id}/capture',
    ]);
    expect(await client.getCustomer(theirs.id)).toEqual(before.customer);
    expect(await client.getWebhook(hook.id)).toEqual(before.webhook);

    // What it made is ended: cards deleted or failed, the account closed, webhooks deleted, customers inactive or rejected.
    expect(new Set((await client.getCards()).map((c) => c.status))).toEqual(new Set(['terminated', 'issue_failed']));
    expect((await client.getAccounts()).map((a) => a.status)).toEqual(['closed']);
    expect((await client.getWebhooks()).map((w) => w.id)).toEqual([hook.id]);
    const customers = (await client.getCustomers()).filter((c) => c.id !== theirs.id);
    expect(customers.map((c) => c.status).sort()).toEqual(['inactive', 'rejected']);
  });
});

test('what it could not end on the upstream is listed by kind and id after the report, and exits 2', async () => {
  const faults = (body: unknown) =>
    fetch(`${upstream.sandbox.url}/_sandbox/api/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  // The upstream refuses to deactivate any customer: the journey's own and the clean-up's both fail.
  expect((await faults({ rules: [{ match: { operationId: 'deactivateCustomer' }, status: 503 }] })).status).toBe(200);
  try {
    const run = await runCommand(['parity', ...withKey()]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^clean-up on the upstream: customer [-0-9a-f]{36}: not deactivated \(503\)$/m);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('error 1 of what it made on the upstream could not be cleaned up (see above)');
  } finally {
    expect((await faults({ rules: [] })).status).toBe(200);
    // What the run left is ended here, so that the upstream holds no active customer for the tests after.
    const client = createClient({
      baseUrl: upstream.sandbox.url,
      apiKey: upstream.apiKey,
      apiSecret: upstream.apiSecret,
      signingKey: { keyId: upstream.keyId, privateKey: upstream.privateKeyPem },
    });
    for (const customer of (await client.getCustomers()).filter((c) => c.status === 'active')) await client.deactivateCustomer(customer.id);
  }
});

test('Ctrl-C stops it after the step in flight, and what it made on the upstream is ended: exit 2', async () => {
  const before = (await upstream.journal()).length;
  const run = spawnCli(['parity', ...withKey()]);
  await waitForOutput(run, (_, stderr) => stderr.includes('It ends what it made'));
  // Well into the journey: its cards issued or failed (none left issuing, which no clean-up can end),
  // a card authorised, the account and the customer active, and many steps before any of that changes.
  const deadline = performance.now() + HUNG_MS;
  while (!(await upstream.journal()).slice(before).some((r) => r.method === 'POST' && r.path.endsWith('/authorisation'))) {
    if (performance.now() > deadline) {
      // Stopped here, so that it sends the tests after nothing of its own.
      run.child.kill('SIGKILL');
      throw new Error(`no card was authorised on the upstream:\n${run.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  run.child.kill('SIGINT');
  const { code, stderr } = await run.exited;
  expect(code).toBe(2);
  expect(stderr).toMatch(/^clean-up on the upstream: account [-0-9a-f]{36}: closed$/m);
  expect(stderr).toMatch(/^clean-up on the upstream: customer [-0-9a-f]{36}: deactivated$/m);
  expect(stderr).toMatch(new RegExp(`^error stopped after \\d+ of ${JOURNEY.length} steps; what it made on the upstream was cleaned up$`, 'm'));
  const client = createClient({
    baseUrl: upstream.sandbox.url,
    apiKey: upstream.apiKey,
    apiSecret: upstream.apiSecret,
    signingKey: { keyId: upstream.keyId, privateKey: upstream.privateKeyPem },
  });
  expect((await client.getCards()).filter((c) => !['terminated', 'issue_failed'].includes(c.status))).toEqual([]);
  expect((await client.getAccounts()).filter((a) => a.status !== 'closed')).toEqual([]);
  expect((await client.getCustomers()).filter((c) => c.status === 'active')).toEqual([]);
});

describe('when it cannot run', () => {
  test('a secret the upstream refuses: exit 2, one line, nothing made', async () => {
    const before = (await upstream.journal()).length;
    const run = await runCommand(['parity', '--upstream', `${upstream.sandbox.url}/v1`, '--api-key', upstream.apiKey, '--api-secret', 'wrong']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^error cannot run: the API key and secret were refused: .* answered 401 invalid_credentials$/),
    ]);
    expect((await upstream.journal()).slice(before).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /v1/auth/token 401']);
  });

  test('an upstream that does not answer: exit 2, one line', async () => {
    const run = await runCommand(['parity', '--upstream', `http://127.0.0.1:${await freePort()}/v1`, '--api-key', 'k', '--api-secret', 's']);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error cannot run: .*ECONNREFUSED/)]);
  });

  test('a sandbox at --url that does not answer: exit 2, one line', async () => {
    const run = await runCommand(['parity', ...withKey(), '--url', `http://127.0.0.1:${await freePort()}`]);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^error cannot run: no sandbox reachable at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/),
    ]);
  });

  test.each([
    [['--signing-key', 'client.key'], '--signing-key and --signing-key-id go together'],
    [['--signing-key', '/nonexistent/client.key', '--signing-key-id', 'k'], 'cannot read --signing-key /nonexistent/client.key: ENOENT'],
    [['--signing-key', 'package.json', '--signing-key-id', 'k'], '--signing-key package.json is not a PEM private key'],
  ])('bad usage %j: exit 2 saying so', async (flags, message) => {
    const run = await runCommand(['parity', '--upstream', 'http://127.0.0.1:9/v1', '--api-key', 'k', '--api-secret', 's', ...flags]);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `error ${message}\n` });
  });

  test('an --upstream that is not an http(s) URL: exit 2', async () => {
    const run = await runCommand(['parity', '--upstream', 'ftp://example.com/v1', '--api-key', 'k', '--api-secret', 's']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error --upstream must be the service's base URL with \/v1/);
  });
});

describe('--dry-run', () => {
  test('prints what it would touch and every step, and sends nothing', async () => {
    const before = (await upstream.journal()).length;
    const run = await runCommand(['parity', ...credentials(), '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('touches nothing else: no credential is changed, and no signing key but one of its own');
    for (const step of JOURNEY) expect(run.stdout).toMatch(new RegExp(`^${step.id} +\\S+ /v1/`, 'm'));
    const json = await runCommand(['parity', ...withKey(), '--dry-run', '--json']);
    const steps = (JSON.parse(json.stdout) as { steps: { id: string; method: string; path: string; does: string }[] }).steps;
    expect(steps.map((s) => s.id)).toEqual(JOURNEY.map((s) => s.id));
    expect(json.stderr).toContain('and no signing key.');
    expect((await upstream.journal()).length).toBe(before);
  });
});

describe('an upstream that misbehaves', () => {
  const flags = (url: string, ...more: string[]) => ['parity', '--upstream', url, '--api-key', 'k', '--api-secret', 's', ...more];

  test('a redirect is never followed with the credentials: exit 2, one line saying so', async () => {
    const hostile = await startHostileUpstream('redirect');
    try {
      const run = await runCommand(flags(hostile.url));
      expect(run.code).toBe(2);
      expect(run.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(
          /^error cannot run: http:\/\/127\.0\.0\.1:\d+ redirected POST \/v1\/auth\/token \(307 to http:\/\/127\.0\.0\.1:\d+\/v1\/auth\/token\); parity follows no redirect/,
        ),
      ]);
      expect(hostile.seen).toEqual([]);
    } finally {
      await hostile.close();
    }
  });

  test('an answer without end is read no further than its bound: exit 2 saying so', async () => {
    const hostile = await startHostileUpstream('huge');
    try {
      const run = await runCommand(flags(hostile.url));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error cannot run: no token: an answer larger than 8 MiB, not read at /);
      expect(hostile.written).toBeLessThan(256 * 1_048_576);
    } finally {
      await hostile.close();
    }
  });

  test('an upstream that stops answering: each request ends at --request-timeout, the run at --timeout, exit 2 saying which', async () => {
    const hostile = await startHostileUpstream('hang');
    try {
      // The token and the key are answered at once; 3 s leaves room for a busy machine.
      const run = await runCommand(flags(hostile.url, '--request-timeout', '3s', '--timeout', '7s'));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(
          `^error stopped after \\d+ of ${JOURNEY.length} steps: the run's deadline \\(--timeout 7s\\) passed; what it made on the upstream was cleaned up$`,
          'm',
        ),
      );
    } finally {
      await hostile.close();
    }
  });

  test('Ctrl-C ends the request in flight at once, however long it may take', async () => {
    const hostile = await startHostileUpstream('hang');
    try {
      const run = spawnCli(flags(hostile.url, '--request-timeout', '1h', '--timeout', '2h'));
      await until(() => hostile.received.includes('GET /v1/chains'), 'a request the upstream never answers');
      run.child.kill('SIGINT');
      const { code, stderr } = await run.exited;
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`^error stopped after \\d+ of ${JOURNEY.length} steps; what it made on the upstream was cleaned up$`, 'm'));
      expect(hostile.closed).toBeGreaterThan(0);
    } finally {
      await hostile.close();
    }
  });

  test.each([
    ['--timeout', 'soon'],
    ['--request-timeout', '0s'],
  ])('%s %s: exit 2 saying what it takes', async (flag, value) => {
    const run = await runCommand(flags('http://127.0.0.1:9/v1', flag, value));
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `error ${flag} must be a duration from 1s to 24h, such as "15m" or "30s"; got "${value}"\n` });
  });
});

test('a --signing-key-id the upstream does not know: the first signed request stops the run, exit 2 naming the cause', async () => {
  const before = (await upstream.journal()).length;
  const run = await runCommand(['parity', ...credentials(), '--signing-key', upstream.privateKeyFile, '--signing-key-id', 'not-the-key']);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    /^error cannot run: the upstream refused the first signed request \(chains: GET \/v1\/chains\) with 400 invalid_signature.*; check --signing-key and --signing-key-id$/m,
  );
  const sent = (await upstream.journal()).slice(before).map((r) => `${r.method} ${r.path}`);
  // Nothing was made: the writes sent were for tokens only.
  expect(sent.filter((r) => !r.startsWith('GET'))).toEqual(['POST /v1/auth/token', 'POST /v1/auth/token']);
});
