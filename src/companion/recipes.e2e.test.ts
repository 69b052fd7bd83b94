import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertBuilt, ROOT, startSandbox, type RunningCli } from '../testing/spawn.js';

// The manual's recipes (docs/companion.md: Helpers for your tests → Recipes) are the projects in examples/: each is run here as
// a user runs it, in a child process, against the built package.
function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  // The test runner's own variables would tell the child it runs inside another test run.
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|CARD_SANDBOX_|JEST|NODE_OPTIONS$)/.test(name)));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: join(ROOT, cwd), env: { ...base, NO_COLOR: '1', FORCE_COLOR: '0', ...env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The go-live report the recipe's global teardown wrote (docs/go-live.md: A report over a whole test
 * run), read as a CI reporter reads it, then removed: the checks its test files exercised pass.
 */
function goLive(cwd: string) {
  const file = join(ROOT, cwd, 'go-live.xml');
  const text = readFileSync(file, 'utf8');
  rmSync(file);
  const suite = (
    new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text) as {
      testsuites: { testsuite: { failures: string; testcase: { name: string; failure?: unknown; skipped?: unknown }[] } };
    }
  ).testsuites.testsuite;
  const passed = suite.testcase.filter((t) => t.failure === undefined && t.skipped === undefined).map((t) => t.name);
  return { failures: Number(suite.failures), passed };
}

// The recipe's own config, with card-sandbox loaded as a user's node_modules holds it (vitest.recipe.config.ts).
const VITEST = [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', join(ROOT, 'vitest.recipe.config.ts'), '--root', '.'];
const JEST = ['--experimental-vm-modules', join(ROOT, 'node_modules/jest/bin/jest.js')];

beforeAll(() => assertBuilt());

// The vitest and jest projects are folders of their own: each runs beside the other. Against one
// container they take turns, as each checks that it left no programme behind.
describe.concurrent('recipes', () => {
  test('vitest: one sandbox in globalSetup, a programme per test file', async () => {
    const { code, output } = await run(VITEST, 'examples/vitest');
    expect(output).toMatch(/Test Files {2}2 passed \(2\)\n\s+Tests {2}3 passed \(3\)/);
    expect(code).toBe(0);
    // The files' programmes were deleted as each file ended; the report of the run still has them.
    expect(goLive('examples/vitest')).toEqual({ failures: 0, passed: expect.arrayContaining(['signatures', 'idempotency-keys', 'request-shapes']) });
  });

  test('jest: globalSetup and globalTeardown, a programme per test file', async () => {
    const { code, output } = await run(JEST, 'examples/jest');
    expect(output).toMatch(/Test Suites: 2 passed, 2 total\nTests: +2 passed, 2 total/);
    expect(code).toBe(0);
    expect(goLive('examples/jest')).toEqual({ failures: 0, passed: expect.arrayContaining(['signatures', 'idempotency-keys', 'receiver-answers']) });
  });

  describe.sequential('a container in CI: createSandbox({ url })', () => {
    // `card-sandbox start` as the image runs it, standing in for the container.
    let container: RunningCli;
    beforeAll(async () => {
      container = await startSandbox();
    });
    afterAll(() => container?.stop());

    test('the vitest project runs against the sandbox CARD_SANDBOX_URL names, reports on its run, and leaves no programme behind', async () => {
      const { code, output } = await run(VITEST, 'examples/vitest', { CARD_SANDBOX_URL: container.url });
      expect(output).toMatch(/Tests {2}3 passed \(3\)/);
      expect(code).toBe(0);
      expect(goLive('examples/vitest').passed).toEqual(expect.arrayContaining(['signatures', 'idempotency-keys', 'request-shapes']));
      const programmes = (await fetch(`${container.url}/_sandbox/programmes`).then((r) => r.json())) as { id: string }[];
      expect(programmes.map((p) => p.id)).toEqual(['default']);
    });

    test('so does the jest project', async () => {
      const { code, output } = await run(JEST, 'examples/jest', { CARD_SANDBOX_URL: container.url });
      expect(output, output).toMatch(/Tests: +2 passed, 2 total/);
      expect(code).toBe(0);
      expect(goLive('examples/jest').failures).toBe(0);
    });
  });
});
