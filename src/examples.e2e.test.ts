import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { assertBuilt, startSandbox, type RunningCli } from './testing/spawn.js';

// The README's walk-through is examples/first-five-minutes.ts: run it as written against the built
// CLI, so the manual cannot drift from what the sandbox does.
let sandbox: RunningCli;

beforeAll(async () => {
  assertBuilt();
  sandbox = await startSandbox(['--verify', 'strict']);
});

afterAll(async () => {
  await sandbox?.stop();
});

test('the first five minutes: signed requests in strict mode, customer → card → authorisation, verified webhooks', async () => {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  process.env.CARD_SANDBOX_URL = sandbox.url;
  // A path in a variable: the example lies outside src/ and is not part of the compiled project.
  const example = '../examples/first-five-minutes.ts';
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
}, 60_000);
