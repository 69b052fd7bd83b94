import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, expect, test } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { runCommand } from '../testing/cli.js';
import { runCli, startSandbox } from '../testing/spawn.js';

// `card-sandbox report` (docs/go-live.md: Before you go live): exit 0 while no check fails, 1 once one does,
// --junit writes the checks as test cases a CI shows, says where, and exits 2 when it cannot; and --all
// or --programme a,b report on several programmes together, deleted ones included. The failing report
// is the process CI runs, spawned; the other runs go through the CLI's own entry in this process.
const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('prints the checks, exits 1 when one fails, and writes JUnit XML', async () => {
  const sandbox = await startSandbox();
  try {
    const quiet = await runCommand(['report', '--url', sandbox.url]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toContain('Checks: 0 pass, 0 fail, 0 not judged, 8 not exercised');

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
    expect(failing.stdout).toMatch(/✗ fail {2}request-shapes {2}Nothing the client sent was refused for its shape/);
    expect(failing.stdout).toMatch(/\n {4}1 request refused for its shape\n/);
    expect(failing.stderr).toMatch(/error \d+ checks? failed/);
    const suite = (
      new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(file, 'utf8')) as {
        testsuites: {
          testsuite: { failures: string; errors: string; time: string; timestamp: string; testcase: { name: string; failure?: { message: string } }[] };
        };
      }
    ).testsuites.testsuite;
    expect(Number(suite.failures)).toBeGreaterThanOrEqual(1);
    expect(suite).toMatchObject({
      errors: '0',
      time: expect.stringMatching(/^\d+\.\d{3}$/),
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });
    expect(suite.testcase.find((t) => t.name === 'request-shapes')!.failure!.message).toBe('1 request refused for its shape');

    // It says where it wrote them: on stdout, or on stderr when stdout is the report's JSON.
    expect(failing.stdout).toContain(`✓ wrote ${suite.testcase.length} test cases as JUnit XML to ${file}\n`);
    const json = await runCommand(['report', '--url', sandbox.url, '--junit', file, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ summary: { fail: expect.any(Number) } });
    expect(json.stderr).toContain(`as JUnit XML to ${file}`);

    // A file it cannot write is bad usage (2), not a failed check (1).
    const unwritable = join(dir, 'no-such-dir', 'go-live.xml');
    const refused = await runCommand(['report', '--url', sandbox.url, '--junit', unwritable]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error cannot write --junit ${unwritable}: ENOENT`);

    // Two more programmes, one of them deleted: --all covers the three, --programme the two named.
    const made = async () =>
      (await (await fetch(`${sandbox.url}/_sandbox/programmes`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json()) as {
        id: string;
        apiKey: string;
        apiSecret: string;
      };
    const [kept, gone] = [await made(), await made()];
    for (const p of [kept, gone]) {
      const auth = await fetch(`${sandbox.url}/v1/auth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiKey: p.apiKey, apiSecret: p.apiSecret }),
      });
      const { token: t } = (await auth.json()) as { token: string };
      await fetch(`${sandbox.url}/v1/customers`, { method: 'GET', headers: { Authorization: `Bearer ${t}` } });
    }
    expect((await fetch(`${sandbox.url}/_sandbox/programmes/${gone.id}`, { method: 'DELETE' })).status).toBe(204);
    const all = await runCommand(['report', '--url', sandbox.url, '--all', '--json']);
    expect((JSON.parse(all.stdout) as { programmes: string[] }).programmes).toEqual(['default', kept.id, gone.id]);
    const listed = await runCommand(['report', '--url', sandbox.url, '--programme', `${gone.id},${kept.id}`]);
    expect(listed.stdout).toContain(`Programmes: ${gone.id}, ${kept.id}`);
    expect(listed.stdout).toMatch(/✗ fail {2}signatures {2}.*\n {4}2 requests of 2 checked failed the signature or digest check/);
    const unknown = await runCommand(['report', '--url', sandbox.url, '--programme', `${kept.id},nope`]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"nope" is not one');
  } finally {
    await sandbox.stop();
  }
});
