/**
 * The go-live report (docs/go-live.md: Before you go live) for two integrations: one built of the
 * companion's own client and receiver (which verifies with verifyWebhook and says it kept each
 * event once), and one whose client neither signs nor sends Idempotency-Keys and whose receiver
 * answers 200 to anything. Forged and duplicated deliveries go to both. The report passes and fails
 * the right checks, with evidence, and its JUnit form parses and names the failures by check id.
 */
import { createServer } from 'node:http';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, expect, test, vi } from 'vitest';
import { junitCases, junitXml } from '../domain/report/junit.js';
import { FORGERIES } from '../domain/webhook-faults.js';
import type { Check, Report } from '../domain/report/index.js';
import { createSandbox } from './create-sandbox.js';

const careful = await createSandbox({ clock: '2026-01-01T09:00:00Z' });
const careless = await createSandbox({ clock: '2026-01-01T09:00:00Z', config: { verify: 'warn' } });
const naive = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
await new Promise<void>((resolve) => naive.listen(0, '127.0.0.1', resolve));
afterAll(async () => {
  await Promise.all([careful.close(), careless.close()]);
  naive.close();
});

const forge = (sandbox: typeof careful, rate: number) =>
  fetch(`${sandbox.url}/_sandbox/webhooks/faults`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', 'Sandbox-Programme': sandbox.programme },
    body: JSON.stringify({ forge: rate, duplicate: 0.3, seed: 3 }),
  });
const byId = (report: Report) => Object.fromEntries(report.checks.map((c) => [c.id, c])) as Record<string, Check>;

test('the companion’s client and receiver: the checks pass, every kind of forgery refused, the untried ones say so', async () => {
  const { client, clock } = careful;
  expect((await forge(careful, 0.5)).status).toBe(200);
  const hooks = await careful.webhooks.receiver();
  for (const name of ['alice', 'bob', 'carol']) {
    const wallet = careful.wallet();
    const customer = await client.createCustomer({ chainId: wallet.chainId, externalId: name });
    await client.signCustomerChallenge(customer.id, wallet.signChallenge(customer.challenge));
    await client.simulateVerifyCustomer(customer.id);
  }
  await clock.advance('1h');
  expect(hooks.refused.length).toBeGreaterThan(0);

  const report = await careful.report();
  const checks = byId(report);
  expect(checks.signatures).toMatchObject({ status: 'pass', evidence: { requests: expect.any(Number) } });
  expect(checks['idempotency-keys']!.status).toBe('pass');
  expect(checks['forged-deliveries']).toMatchObject({ status: 'pass', evidence: { forged: hooks.refused.length, neverTried: [] } });
  expect(Object.keys(checks['forged-deliveries']!.evidence.kinds as object)).toEqual([...FORGERIES]);
  expect(checks['receiver-answers']!.status).toBe('pass');
  // The companion's receiver says it kept each event once: duplicates are judged.
  expect(checks['duplicates-and-order']).toMatchObject({ status: 'pass', evidence: { actedTwice: 0 } });
  expect(checks['request-shapes']!.status).toBe('pass');
  for (const id of ['retries', 'token-renewal']) expect(checks[id]!.status, id).toBe('not exercised');
  expect(report.coverage.operations.find((o) => o.operationId === 'createCustomer')).toMatchObject({ calls: 3, statuses: { '201': 3 } });
  expect(report.coverage.neverCalled).toContain('createAccountCard');
  expect(report.coverage.states.find((s) => s.resource === 'customer')!.reached).toEqual(expect.arrayContaining(['initiating', 'active']));
  expect(report.summary).toEqual({ pass: 6, fail: 0, 'not judged': 0, 'not exercised': 2 });
});

test('a client that neither signs nor sends keys, and a receiver that answers 200 to anything: those checks fail, with evidence', async () => {
  expect((await forge(careless, 1)).status).toBe(200);
  const api = async (method: string, path: string, body?: unknown) => {
    const { token } = (await (
      await fetch(`${careless.url}/v1/auth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiKey: careless.apiKey, apiSecret: careless.apiSecret }),
      })
    ).json()) as { token: string };
    return fetch(`${careless.url}/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };
  // In warn mode the in-process sandbox logs each unsigned request on stderr: kept here, and checked, rather than printed among the results.
  const logged: string[] = [];
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (logged.push(String(chunk)), true));
  let created: Response;
  let refused: Response;
  try {
    const address = naive.address() as { port: number };
    expect((await api('PUT', '/webhooks', { callbackUrl: `http://127.0.0.1:${address.port}/hooks`, types: ['customer.updated'] })).status).toBe(200);
    const wallet = careless.wallet();
    created = await api('POST', '/customers', { chainId: wallet.chainId, externalId: 'bob' });
    expect(created.status).toBe(201);
    refused = await api('POST', '/customers', { chainId: 'nope' });
    expect(refused.status).toBe(400);
    await careless.clock.advance('1h');
  } finally {
    stderr.mockRestore();
  }
  expect(logged.filter((line) => line.includes('"level":"warn"') && line.includes('POST /v1/customers: missing_idempotency_key'))).toHaveLength(2);

  const report = await careless.report();
  const checks = byId(report);
  const at = (requestId: string | null) => expect.arrayContaining([expect.objectContaining({ requestId })]);
  expect(checks.signatures).toMatchObject({
    status: 'fail',
    evidence: { failed: expect.any(Number), problems: at(created.headers.get('Request-Id')) },
    hint: expect.stringContaining('@method'),
  });
  expect(checks['idempotency-keys']).toMatchObject({ status: 'fail', evidence: { withoutKey: 3, problems: at(created.headers.get('Request-Id')) } });
  // The first forgery (the seed starts the rotation at created-past) was accepted, and so delivered.
  expect(checks['forged-deliveries']).toMatchObject({
    status: 'fail',
    evidence: { accepted: ['created-past'], problems: [{ deliveryId: expect.any(String) }] },
  });
  expect(checks['request-shapes']).toMatchObject({ status: 'fail', evidence: { problems: [{ requestId: refused.headers.get('Request-Id') }] } });
  expect(report.summary.fail).toBe(4);

  const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junitXml(report)) as {
    testsuites: {
      testsuite: {
        tests: string;
        failures: string;
        errors: string;
        time: string;
        testcase: { name: string; failure?: { message: string }; skipped?: unknown }[];
      };
    };
  };
  const suite = junit.testsuites.testsuite;
  expect(suite).toMatchObject({ failures: '4', errors: '0', tests: String(junitCases(report)) });
  expect(Number.isFinite(Number(suite.time))).toBe(true);
  expect(suite.testcase.filter((t) => t.failure !== undefined).map((t) => [t.name, t.failure!.message])).toEqual(
    report.checks.filter((c) => c.status === 'fail').map((c) => [c.id, c.finding]),
  );
  expect(suite.testcase.filter((t) => t.skipped !== undefined).map((t) => t.name)).toEqual(
    expect.arrayContaining([...report.coverage.neverCalled, 'direction.credit', 'insufficient_funds']),
  );
});
