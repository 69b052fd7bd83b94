import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMutatingProxy, type Mutation, type MutatingProxy } from '../testing/mutating-proxy.js';
import { startParityUpstream, type ParityUpstream } from '../testing/parity-upstream.js';
import { startInProcess, type InProcessSandbox } from '../cli/commands/in-process.js';
import { runCommand } from '../testing/cli.js';
import type { ParityReport } from './report.js';
import { TIMING_RULE } from './states.js';

// `card-sandbox parity` (docs/parity.md: Reading a difference) through a proxy in front of a
// card-sandbox upstream that changes its answers in seven ways, each on one step: every change is
// reported on that step with its kind, and nothing else is. The local side is a new programme of a
// running sandbox (--url), deleted afterwards; the upstream's signing key is one parity registers
// for the run and deletes after it. Parity and that sandbox run in this process, the upstream in its own.
const ID = '[-0-9a-f]{36}';
const at = (pattern: string) => new RegExp(`^${pattern.replaceAll('{id}', ID)}$`);
const object = (body: unknown) => body as Record<string, unknown>;

// The account's move to active held back well beyond the timing rule's margin over the sandbox's 2 s.
const HELD_MS = 2_000 + 3 * TIMING_RULE.minimumMs;
let signedAt: number | undefined;
const signing: Mutation = { method: 'POST', path: at('/v1/accounts/{id}/challenge/sign'), apply: (a, now) => void (a.status === 204 && (signedAt = now)) };

const MUTATIONS: Mutation[] = [
  // changes a status: 200 → 202
  { method: 'PATCH', path: at('/v1/cards/{id}/deactivate'), apply: (a) => void (a.status = 202) },
  // drops a field
  { method: 'GET', path: at('/v1/customers/{id}'), apply: (a) => void (a.status === 200 && delete object(a.body).externalId) },
  // returns a different error code
  { method: 'GET', path: at('/v1/customers/{id}'), apply: (a) => void (object(a.body).code === 'customer_not_found' && (object(a.body).code = 'not_found')) },
  // adds a field
  { method: 'GET', path: at('/v1/authorisations/{id}'), apply: (a) => void (a.status === 200 && (object(a.body).reference = 'parity')) },
  // renames an enum value
  {
    method: 'GET',
    path: at('/v1/customers/{id}/accounts'),
    apply: (a) => {
      for (const account of a.body as Record<string, unknown>[]) if (account.type === 'card_account') account.type = 'CARD_ACCOUNT';
    },
  },
  // reorders a list
  { method: 'GET', path: at('/v1/cards'), apply: (a) => void (a.body as unknown[]).reverse() },
  // delays a state transition: the deployed account still reads pending for HELD_MS after its challenge is signed
  {
    method: 'GET',
    path: at('/v1/accounts/{id}'),
    apply: (a, now) => void (signedAt !== undefined && now - signedAt < HELD_MS && object(a.body).status === 'active' && (object(a.body).status = 'pending')),
  },
];

let upstream: ParityUpstream;
let proxy: MutatingProxy;
let local: InProcessSandbox;
beforeAll(async () => {
  [upstream, local] = await Promise.all([startParityUpstream(), startInProcess()]);
  proxy = await startMutatingProxy(upstream.sandbox.url, [...MUTATIONS, signing]);
});
afterAll(async () => {
  await proxy?.close();
  await Promise.all([upstream?.stop(), local?.close()]);
});

test('reports each change the proxy makes on its step with its kind, and nothing else', { timeout: 180_000 }, async () => {
  const xmlFile = join(upstream.dir, 'mutated.xml');
  const run = await runCommand([
    'parity',
    ...['--upstream', `${proxy.url}/v1`, '--api-key', upstream.apiKey, '--api-secret', upstream.apiSecret],
    ...['--url', local.url, '--json', '--junit', xmlFile],
  ]);
  expect(run.code, run.stderr).toBe(1);
  expect(proxy.applied.slice(0, MUTATIONS.length).every((n) => n > 0)).toBe(true);
  const report = JSON.parse(run.stdout) as ParityReport;
  const found = report.steps.flatMap((s) => s.differences.map((d) => ({ step: s.id, ...d })));
  expect(found).toEqual(
    expect.arrayContaining([
      { step: 'deactivate-card', kind: 'status', where: 'status', upstream: 202, local: 200 },
      // Kinds are the sandbox's side of it: the upstream without a field the sandbox has is an extra field of the sandbox's.
      { step: 'get-customer', kind: 'extra-field', where: 'body.externalId', upstream: null, local: 'string (word)' },
      { step: 'refuse-unknown-id', kind: 'error-code', where: 'body.code', upstream: 'not_found', local: 'customer_not_found' },
      { step: 'get-authorisation', kind: 'missing-field', where: 'body.reference', upstream: 'string (word)', local: null },
      { step: 'list-customer-accounts', kind: 'enum-value', where: 'body[<account>].type', upstream: 'CARD_ACCOUNT', local: 'card_account' },
      { step: 'list-cards', kind: 'order', where: 'body', upstream: ['<card-3>', '<card-2>', '<card-1>'], local: ['<card-1>', '<card-2>', '<card-3>'] },
      expect.objectContaining({ step: 'sign-account-challenge', kind: 'timing', where: 'account.status pending → active' }),
    ]),
  );
  expect(found).toHaveLength(7);
  const timing = found.find((d) => d.kind === 'timing')!;
  expect(timing.upstream).toBeGreaterThanOrEqual(HELD_MS - 1_000);
  expect(report.summary).toEqual({ steps: report.steps.length, differing: 7 });

  const suite = (
    new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(xmlFile, 'utf8')) as {
      testsuites: { testsuite: { failures: string; errors: string; testcase: { name: string; failure?: { type: string; message: string } }[] } };
    }
  ).testsuites.testsuite;
  expect(suite).toMatchObject({ failures: '7', errors: '0' });
  const failing = suite.testcase.filter((t) => t.failure !== undefined);
  expect(failing.map((t) => t.name.split(':')[0]).sort()).toEqual(
    ['deactivate-card', 'get-customer', 'refuse-unknown-id', 'get-authorisation', 'list-customer-accounts', 'list-cards', 'sign-account-challenge'].sort(),
  );
  expect(failing.find((t) => t.name.startsWith('list-cards:'))!.failure).toMatchObject({ type: 'parity', message: '1 difference: order' });

  // The programme it made in the sandbox at --url is gone; on the upstream, the key it registered was deleted.
  const programmes = (await (await fetch(`${local.url}/_sandbox/programmes`)).json()) as { id: string }[];
  expect(programmes).toHaveLength(1);
  const auth = (await upstream.journal()).filter((r) => r.path.startsWith('/v1/auth/') && r.path !== '/v1/auth/token');
  expect(auth.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['PUT /v1/auth/signing 204', 'DELETE /v1/auth/signing 204']);
});
