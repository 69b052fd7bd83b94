import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, expect, test } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config.js';
import { runCli, startSandbox } from '../testing/spawn.js';

// `card-sandbox report` (docs/go-live.md: Before you go live): exit 0 while no check fails, 1 once one does,
// and --junit writes the checks as test cases a CI shows, says where, and exits 2 when it cannot.
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
    // It says where it wrote them: on stdout, or on stderr when stdout is the report's JSON.
    expect(failing.stdout).toContain(`✓ wrote ${suite.testcase.length} test cases as JUnit XML to ${file}\n`);
    const json = await runCli(['report', '--url', sandbox.url, '--junit', file, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ summary: { fail: expect.any(Number) } });
    expect(json.stderr).toContain(`as JUnit XML to ${file}`);

    // A file it cannot write is bad usage (2), not a failed check (1).
    const unwritable = join(dir, 'no-such-dir', 'go-live.xml');
    const refused = await runCli(['report', '--url', sandbox.url, '--junit', unwritable]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error cannot write --junit ${unwritable}: ENOENT`);
  } finally {
    await sandbox.stop();
  }
});
