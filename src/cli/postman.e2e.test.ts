import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCommand } from '../testing/cli.js';
import { ROOT, startSandbox, type RunningCli } from '../testing/spawn.js';
import type { PostmanResult } from './commands/postman.js';

// `card-sandbox postman` against a sandbox that refuses every request it cannot verify, with
// credentials of its own, then the Journey folder run by newman, as CI runs it: every request is
// accepted and every test passes; with a key it cannot read, nothing is sent. One sandbox; the
// commands run in this process, through the CLI's own entry.

interface NewmanSummary {
  run: {
    stats: Record<'requests' | 'assertions' | 'prerequestScripts' | 'testScripts', { total: number; failed: number }>;
    failures: { error: { name: string; message: string; test?: string }; source?: { name?: string } }[];
  };
}
const newman = createRequire(join(ROOT, 'package.json'))('newman') as {
  run(options: Record<string, unknown>, done: (error: Error | null, summary: NewmanSummary) => void): void;
};

const newmanRun = (options: Record<string, unknown>) =>
  new Promise<NewmanSummary>((resolve, reject) => newman.run({ ...options, reporters: [] }, (error, summary) => (error ? reject(error) : resolve(summary))));

const apiKey = randomUUID();
const apiSecret = `postman-${randomUUID()}`;
let sandbox: RunningCli;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'card-sandbox-postman-'));
  sandbox = await startSandbox(['--verify', 'strict', '--api-key', apiKey, '--api-secret', apiSecret]);
});
afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('card-sandbox postman', () => {
  test('writes a collection whose journey newman runs against strict verification, every request accepted and every test passed', async () => {
    const out = join(dir, 'postman');
    const run = await runCommand(['postman', '--out', out, '--url', sandbox.url, '--api-key', apiKey, '--api-secret', apiSecret, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as PostmanResult;
    expect(result).toMatchObject({ baseUrl: sandbox.url, programme: 'default', apiKey, collection: join(out, 'card-sandbox.postman_collection.json') });
    expect(result.folders[0]).toEqual({ name: 'Journey', requests: expect.any(Number) });

    const environment = JSON.parse(readFileSync(result.environment, 'utf8')) as { values: { key: string; value: string; type: string }[] };
    const value = (key: string) => environment.values.find((v) => v.key === key);
    expect(value('baseUrl')).toMatchObject({ value: sandbox.url, type: 'default' });
    expect(value('apiSecret')).toMatchObject({ value: apiSecret, type: 'secret' });
    expect(value('signingPrivateKey')).toMatchObject({ value: expect.stringMatching(/^-----BEGIN PRIVATE KEY-----/), type: 'secret' });
    expect(value('signingKeyId')!.value).toBe(result.signingKeyId);

    const summary = await newmanRun({ collection: result.collection, environment: result.environment, folder: 'Journey' });
    const failures = summary.run.failures.map((f) => `${f.source?.name}: ${f.error.test ?? f.error.name} — ${f.error.message}`);
    expect(failures).toEqual([]);
    const { requests, assertions, prerequestScripts } = summary.run.stats;
    expect(requests).toMatchObject({ total: result.folders[0]!.requests, failed: 0 });
    expect(requests.total).toBeGreaterThanOrEqual(20);
    expect(assertions.failed).toBe(0);
    expect(assertions.total).toBeGreaterThan(3 * requests.total);
    expect(prerequestScripts.failed).toBe(0);

    // What the sandbox saw: every /v1 request outside /v1/auth verified, none refused or warned about.
    const journal = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as { path: string; verified?: boolean; verification?: unknown }[];
    const signed = journal.filter((r) => r.path.startsWith('/v1/') && !r.path.startsWith('/v1/auth/'));
    expect(signed.length).toBeGreaterThanOrEqual(15);
    expect(signed.filter((r) => r.verified !== true || r.verification !== undefined)).toEqual([]);

    // A key the signer cannot read: each request fails, saying why, and none is sent.
    const broken = { ...environment, values: environment.values.map((v) => (v.key === 'signingPrivateKey' ? { ...v, value: 'not a key' } : v)) };
    const refused = await newmanRun({ collection: result.collection, environment: broken, folder: 'Engine' });
    expect(refused.run.stats.requests.total).toBe(0);
    const why = 'card-sandbox: signingPrivateKey: the signing key is not an EC P-384 private key in PEM (BEGIN EC PRIVATE KEY or BEGIN PRIVATE KEY)';
    expect(refused.run.failures.map((f) => `${f.source?.name}: ${f.error.message}`)).toEqual([`Get chains: ${why}`, `Get assets: ${why}`]);
    expect(await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()).toHaveLength(journal.length);
  });

  test('says why when the credentials are wrong, nothing answers or --out is not a folder', async () => {
    const wrong = await runCommand(['postman', '--out', join(dir, 'wrong'), '--url', sandbox.url, '--api-key', apiKey, '--api-secret', 'not-it']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/the sandbox refused the API key and secret .*give those of the programme with --api-key and --api-secret/);
    const unknown = await runCommand(['postman', '--out', join(dir, 'wrong'), '--url', sandbox.url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no programme of the sandbox at');
    const nobody = await runCommand(['postman', '--out', join(dir, 'wrong'), '--url', 'http://127.0.0.1:9']);
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toMatch(/no sandbox reachable at http:\/\/127\.0\.0\.1:9/);
    expect(() => readFileSync(join(dir, 'wrong', 'card-sandbox.postman_collection.json'))).toThrow(/ENOENT/);
    writeFileSync(join(dir, 'a-file'), '');
    const notAFolder = await runCommand(['postman', '--out', join(dir, 'a-file'), '--url', sandbox.url, '--api-key', apiKey, '--api-secret', apiSecret]);
    expect(notAFolder.code).toBe(2);
    expect(notAFolder.stderr).toMatch(/--out .*a-file: cannot make the folder \(EEXIST\)/);
  });
});
