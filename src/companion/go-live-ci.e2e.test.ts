/**
 * The go-live report's "In CI" recipe (docs/go-live.md: In CI), run as the page writes it: the
 * sandbox started with the page's own command line, a suite that makes its programme with
 * `createSandbox({ url })` (a careful integration, src/testing/integrations/), then `card-sandbox
 * report --all`: every check is exercised.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Report } from '../client/control.generated.js';
import { carefulRun } from '../testing/integrations/journey.js';
import type { IntegrationReceiver } from '../testing/integrations/receiver.js';
import { assertBuilt, ROOT, runCli, startSandbox, type RunningCli } from '../testing/spawn.js';
import { createSandbox } from './create-sandbox.js';

/** The arguments of the page's `card-sandbox start` line, its continuations joined, as a shell splits them. */
function recipeStartArgs(): string[] {
  const page = readFileSync(join(ROOT, 'docs/go-live.md'), 'utf8');
  const block = /## In CI[\s\S]*?```sh\n([\s\S]*?)```/.exec(page)![1]!;
  const line = /card-sandbox start ((?:.*\\\n)*.*)/.exec(block)![1]!.replace(/\\\n/g, ' ').replace(/&\s*$/, '');
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

let running: RunningCli;
let receiver: IntegrationReceiver | undefined;
beforeAll(async () => {
  assertBuilt();
  running = await startSandbox(recipeStartArgs());
});
afterAll(async () => {
  await receiver?.close();
  await running?.stop();
});

test('the recipe as the page writes it: a suite on createSandbox({ url }) meets the faults, and no check is left not exercised', async () => {
  expect(recipeStartArgs()).toContain('--faults-everywhere');
  await using sandbox = await createSandbox({ url: running.url, clock: '2026-01-01T09:00:00Z' });
  ({ receiver } = await carefulRun(sandbox));

  const run = await runCli(['report', '--all', '--json', '--url', running.url]);
  const report = JSON.parse(run.stdout) as Report;
  expect(report.checks.filter((c) => c.status === 'not exercised').map((c) => c.id)).toEqual([]);
  expect(report.checks.filter((c) => c.status === 'fail').map((c) => ({ id: c.id, finding: c.finding }))).toEqual([]);
  expect(run.code).toBe(0);
});
