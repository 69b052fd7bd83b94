/**
 * The go-live report (docs/go-live.md: Before you go live) of a careful integration, written outside
 * the sandbox (src/testing/integrations/: fetch, node:crypto, the shipped signRequest): three
 * journeys at once, as a test suite runs them, under the API fault lab (writes that fail before and
 * after committing, 429s with Retry-After, a dropped connection) and the delivery lab (every kind of
 * forgery, duplicates, reordering), then an hour later, when their token has expired. It signs
 * everything, reuses its keys, honours Retry-After, renews its token once, and its receiver
 * verifies and acts once per event: every check passes — none fails, none is merely not judged.
 */
import { afterAll, expect, test } from 'vitest';
import type { Check } from '../domain/report/index.js';
import { FORGERIES } from '../domain/webhook-faults.js';
import { carefulRun } from '../testing/integrations/journey.js';
import type { IntegrationReceiver } from '../testing/integrations/receiver.js';
import { createSandbox } from './create-sandbox.js';

const sandbox = await createSandbox({ clock: '2026-01-01T09:00:00Z' });
let receiver: IntegrationReceiver | undefined;
afterAll(async () => {
  await receiver?.close();
  await sandbox.close();
});

test('a careful client and receiver, three journeys at once under both labs: every check passes', async () => {
  await sandbox.faults.api.set({
    rules: [
      // The first two customers are created, then their answers lost: only a retry with the same key tells.
      { match: { method: 'POST', path: '/v1/customers' }, status: 503, retryAfter: 1, effect: 'after', times: 2 },
      { match: { method: 'POST' }, status: 429, retryAfter: 1, rate: 0.15 },
      { match: { method: 'GET' }, reset: true, times: 1 },
    ],
    seed: 11,
  });
  const faults = await fetch(`${sandbox.url}/_sandbox/webhooks/faults`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', 'Sandbox-Programme': sandbox.programme },
    body: JSON.stringify({ forge: 0.5, duplicate: 0.3, reorder: 0.3, seed: 7 }),
  });
  expect(faults.status).toBe(200);

  // Retries of the refused forgeries go out; the token expires; then all three read back at once.
  const run = await carefulRun(sandbox);
  receiver = run.receiver;
  const { client } = run;

  const report = await sandbox.report();
  const checks = Object.fromEntries(report.checks.map((c) => [c.id, c])) as Record<string, Check>;
  expect(
    report.checks
      .filter((c) => c.status !== 'pass')
      .map((c) => ({ id: c.id, status: c.status, finding: c.finding, notJudged: c.notJudged, evidence: c.evidence })),
  ).toEqual([]);
  expect(report.summary).toEqual({ pass: 8, fail: 0, 'not judged': 0, 'not exercised': 0 });

  // What was tried, so that each pass stands on evidence.
  expect(checks.retries!.evidence).toMatchObject({ retryAfter: { asked: expect.any(Number) } });
  expect(checks.retries!.evidence.failures).toBeGreaterThanOrEqual(2);
  expect(checks['token-renewal']!.evidence).toMatchObject({ expiries: 1, renewed: 1 });
  expect(client.renewals).toBe(1);
  expect(checks['forged-deliveries']!.evidence).toMatchObject({ neverTried: [], accepted: [] });
  expect(Object.keys(checks['forged-deliveries']!.evidence.kinds as object)).toEqual([...FORGERIES]);
  expect(receiver.refused.length).toBe(checks['forged-deliveries']!.evidence.forged);
  expect(checks['duplicates-and-order']!.evidence.eventsSentTwice).toBeGreaterThan(0);
  expect(checks.signatures!.evidence).toMatchObject({ answeredByFaultLab: expect.any(Number), refusedAtAuthentication: 3 });
  expect(checks.signatures!.evidence.answeredByFaultLab).toBeGreaterThanOrEqual(1);
  expect(receiver.acted).toBe(receiver.events.size);

  // The concurrent journeys did what tripped the report before: another customer's POST came between
  // a failed create and its retry, and the three journeys' calls with the expired token got three 401s.
  const journal = (await (await fetch(`${sandbox.url}/_sandbox/requests?programme=${sandbox.programme}`)).json()) as {
    method: string;
    path: string;
    status: number;
    idempotencyKey?: string;
    real: { received: number; answered: number };
  }[];
  const creates = journal.filter((e) => e.method === 'POST' && e.path === '/v1/customers').sort((a, b) => a.real.received - b.real.received);
  const failed = creates.find((e) => e.status === 503)!;
  const retry = creates.find((e) => e.idempotencyKey === failed.idempotencyKey && e !== failed)!;
  expect(
    creates.some((e) => e.idempotencyKey !== failed.idempotencyKey && e.real.received > failed.real.received && e.real.received < retry.real.received),
  ).toBe(true);
  const expired = journal.filter((e) => e.status === 401).sort((a, b) => a.real.received - b.real.received);
  expect(expired).toHaveLength(3);
});
