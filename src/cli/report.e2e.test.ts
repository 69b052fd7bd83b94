import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, expect, test } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config.js';
import { runCli, startSandbox } from '../testing/spawn.js';

// `card-sandbox report` (docs/go-live.md: Before you go live): exit 0 while no check fails, 1 once one does,
// and --junit writes the checks as test cases a CI shows.
const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('prints the checks, exits 1 when one fails, and writes JUnit XML', async () => {
  const sandbox = await startSandbox();
  try {
    const quiet = await runCli(['report', '--url', sandbox.url]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toContain('Checks: 0 pass, 0 fail, 8 not exercised');

    const { token } = (await (
      await fetch(`${sandbox.url}/v1/auth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET }),
      })
    ).json()) as { token: string };
    await fetch(`${sandbox.url}/v1/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const file = join(dir, 'go-live.xml');
    const failing = await runCli(['report', '--url', sandbox.url, '--junit', file]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/✗ fail {2}Nothing the client sent was refused for its shape/);
    expect(failing.stderr).toMatch(/error \d+ checks? failed/);
    const suite = (
      new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(file, 'utf8')) as {
        testsuites: { testsuite: { failures: string; testcase: { name: string; failure?: unknown }[] } };
      }
    ).testsuites.testsuite;
    expect(Number(suite.failures)).toBeGreaterThanOrEqual(1);
    expect(suite.testcase.filter((t) => t.failure !== undefined).map((t) => t.name)).toContain(
      'Nothing the client sent was refused for its shape (invalid_request or idempotency_key_reused) in the last 100 requests',
    );
  } finally {
    await sandbox.stop();
  }
});
