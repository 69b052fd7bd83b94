import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';

// The manual's examples — the README's walk-through (examples/first-five-minutes.ts) and the delivery
// lab's handlers (examples/webhook-lab.ts, docs/webhooks.md: The delivery lab) — run as written against the built CLI, so the manual cannot drift
// from what the sandbox does.
let sandbox: RunningCli;
let warn: RunningCli;

beforeAll(async () => {
  assertBuilt();
  [sandbox, warn] = await Promise.all([startSandbox(['--verify', 'strict']), startSandbox()]);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all([sandbox?.stop(), warn?.stop()]);
});

test('the first five minutes: signed requests in strict mode, customer → card → authorisation, verified webhooks', async () => {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  vi.stubEnv('CARD_SANDBOX_URL', sandbox.url);
  // A path in a variable: the example lies outside src/ and is not part of the compiled project.
  const example = '../../examples/first-five-minutes.ts';
  await import(example);
  vi.restoreAllMocks();

  expect(lines[0]).toMatch(/^authorised 12\.5 USD = [\d.]+ EUR$/);
  for (const expected of [
    'verified customer.updated active',
    'verified account.updated active',
    'verified card.updated active',
    'verified authorisation.updated captured',
    'verified transaction.updated processed',
  ]) {
    expect(lines).toContain(expected);
  }
  // Printed in the order things happened, whatever order the deliveries arrived in.
  const at = (line: string) => lines.indexOf(`verified ${line}`);
  expect(at('authorisation.updated capturing')).toBeGreaterThan(-1);
  expect(at('authorisation.updated capturing')).toBeLessThan(at('authorisation.updated captured'));
  expect(at('transaction.updated processing')).toBeGreaterThan(-1);
  expect(at('transaction.updated processing')).toBeLessThan(at('transaction.updated processed'));
  // It leaves no subscription behind.
  expect(await (await fetch(`${sandbox.url}/_sandbox/webhooks`)).json()).toEqual([]);
});

test('the delivery lab: a naive handler double-counts under duplicates; the idempotent one holds up under every fault at once', async () => {
  vi.stubEnv('CARD_SANDBOX_URL', warn.url);
  const example = '../../examples/webhook-lab.ts';
  const { runLab, naiveHandler, idempotentHandler } = await import(example);

  const naive = await runLab(() => naiveHandler(), { duplicate: 1 });
  expect(naive.events).toBeGreaterThan(5);
  expect(naive.handler.effects).toBe(2 * naive.events);
  const idempotent = await runLab(idempotentHandler, { duplicate: 1 });
  expect(idempotent.handler.effects).toBe(idempotent.events);

  // Duplicates, disorder, delays and outages in one run.
  const lab = await runLab(idempotentHandler, { duplicate: 0.3, reorder: 0.5, delay: '1s-30s', fail: { status: 503, rate: 0.3 }, timeout: 0.1, seed: 7 });
  expect(lab.delivered).toBe(true);
  expect(lab.handler.effects).toBe(lab.events);
  expect(lab.handler.statuses).toEqual(lab.truth);
});
