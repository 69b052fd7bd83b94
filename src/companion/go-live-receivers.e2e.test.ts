/**
 * The go-live report (docs/go-live.md: Before you go live) of webhook receivers with one flaw each,
 * written outside the sandbox (src/testing/integrations/), each subscribed in a programme of its own
 * under the delivery lab's forge and duplicate faults: each fails the check its flaw belongs to —
 * a double-processing receiver `duplicates-and-order`, one that verifies nothing but answers 5xx or
 * too slowly `forged-deliveries` (no refusal), and one per kind of forgery it lets through — and a
 * receiver that does not say what it did is not judged on duplicates, never passed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Check } from '../domain/report/index.js';
import { FORGERIES, type Forgery } from '../domain/webhook-faults.js';
import { integrationReceiver, type IntegrationReceiver, type ReceiverFlaws } from '../testing/integrations/receiver.js';
import { createSandbox, type Sandbox } from './create-sandbox.js';

const home = await createSandbox();
const opened: (Sandbox | IntegrationReceiver)[] = [];
afterAll(async () => {
  // Last opened first: a programme before the sandbox it is in.
  for (const o of opened.reverse()) await o.close();
  await home.close();
});

/**
 * A programme whose receiver has these flaws, under these delivery-lab faults: `events` customers
 * are created (an event each), then an hour of sandbox time lets every retry go. Its report.
 */
async function receive(flaws: ReceiverFlaws, faults: object, events = 14, advance = '1h', url = home.url) {
  const sandbox = await createSandbox({ url, clock: '2026-01-01T09:00:00Z' });
  opened.push(sandbox);
  const set = await fetch(`${sandbox.url}/_sandbox/webhooks/faults?programme=${sandbox.programme}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(faults),
  });
  expect(set.status).toBe(200);
  const receiver = await integrationReceiver(await sandbox.client.getWebhookVerificationKey(), flaws);
  opened.push(receiver);
  await sandbox.client.saveWebhook({ callbackUrl: receiver.url, types: ['customer.updated'] });
  for (let i = 0; i < events; i++) await sandbox.client.createCustomer({ chainId: sandbox.wallet().chainId, externalId: `c${i}` });
  if (advance) await sandbox.clock.advance(advance);
  return { sandbox, receiver, ...checksOf(await sandbox.report()) };
}

const checksOf = (report: Awaited<ReturnType<Sandbox['report']>>) => ({
  checks: Object.fromEntries(report.checks.map((c) => [c.id, c])) as Record<string, Check>,
  failed: report.checks.filter((c) => c.status === 'fail').map((c) => c.id),
});

describe('a receiver with one flaw fails the check it belongs to', () => {
  it('one that acts on every duplicate, and says so: duplicates-and-order fails', async () => {
    const { checks, failed, receiver } = await receive({ noDedupe: true }, { duplicate: 0.5, seed: 3 });
    expect(receiver.acted).toBeGreaterThan(receiver.events.size);
    expect(checks['duplicates-and-order']).toMatchObject({ status: 'fail', evidence: { actedTwice: receiver.acted - receiver.events.size } });
    expect(failed).toEqual(['duplicates-and-order']);
  });

  it('one that dedupes but does not say so is not judged on duplicates: never a pass', async () => {
    const { checks, failed } = await receive({ silent: true }, { duplicate: 0.5, seed: 3 });
    expect(checks['duplicates-and-order']).toMatchObject({ status: 'not judged', notJudged: [{ why: expect.stringContaining('Sandbox-Processed') }] });
    expect(failed).toEqual([]);
  });

  it('one that verifies nothing but answers 503: no forgery was refused', async () => {
    const { checks, failed } = await receive({ verifyNothing: true, alwaysStatus: 503 }, { forge: 0.5, seed: 5 }, 8, '');
    expect(checks['forged-deliveries']).toMatchObject({ status: 'fail', evidence: { accepted: [] } });
    expect((checks['forged-deliveries']!.evidence.notRefused as string[]).length).toBeGreaterThan(0);
    expect(failed).toEqual(['receiver-answers', 'forged-deliveries']);
  });

  it('one that verifies nothing and answers after the attempt timed out: no forgery was refused', async () => {
    // One event, forged, in a sandbox that gives up on an answer after 1 s (--webhook-timeout); the
    // receiver answers half a second later, and the frozen clock brings no retry.
    const quick = await createSandbox({ config: { webhookTimeoutMs: 1000 } });
    opened.push(quick);
    const { sandbox, receiver } = await receive({ verifyNothing: true, answerAfterMs: 1_500 }, { forge: 1 }, 1, '', quick.url);
    for (let tries = 0; ; tries++) {
      const { checks, failed } = checksOf(await sandbox.report());
      if (checks['forged-deliveries']!.status !== 'not exercised') {
        expect(checks['forged-deliveries']).toMatchObject({
          status: 'fail',
          evidence: { notRefused: ['body-changed'], problems: [{ why: expect.stringMatching(/no response within 1 s$/) }] },
        });
        expect(failed).toEqual(['forged-deliveries']);
        break;
      }
      if (tries > 300) throw new Error('the forged attempt was never recorded');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(receiver.acted).toBe(1);
  });

  const leaks: [string, ReceiverFlaws, Forgery[]][] = [
    ['never compares the digest with the body', { skipDigest: true }, ['body-changed']],
    ['never checks the signature against the key', { skipSignature: true }, ['other-key']],
    ['verifies only signatures naming the keyid it knows', { trustUnknownKeyid: true }, ['unknown-keyid']],
    ['takes a signature of any age', { maxAgeSeconds: 0 }, ['created-past', 'replayed']],
    ['takes a signature up to an hour old', { maxAgeSeconds: 3600 }, ['replayed']],
    ['takes a signature made in the future', { allowFuture: true }, ['created-future']],
    ['takes a delivery with no signature', { allowUnsigned: true }, ['unsigned']],
  ];
  it.each(leaks)(
    'one that %s: forged-deliveries fails, naming what it accepted',
    async (_, flaws, accepted) => {
      const { checks, failed } = await receive(flaws, { forge: 0.5, seed: 9 });
      expect(checks['forged-deliveries']).toMatchObject({ status: 'fail', evidence: { accepted, notRefused: [], neverTried: [] } });
      expect(checks['forged-deliveries']!.finding).toBe(`accepted (2xx): ${accepted.join(', ')}`);
      expect(failed).toEqual(['forged-deliveries']);
      for (const kind of FORGERIES.filter((k) => !accepted.includes(k)))
        expect((checks['forged-deliveries']!.evidence.kinds as Record<string, { accepted: number }>)[kind]!.accepted).toBe(0);
    },
    60_000,
  );
});
