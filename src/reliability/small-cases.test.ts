/**
 * The smaller ways a sandbox could be broken or made to say too much (docs/reliability.md): a
 * request under way on a programme deleted meanwhile, an id of `.` or `..` in a path, a forged
 * token's programme claim, the bytes snapshots may hold, the MCP server's listeners and what its
 * `seed` tool says of a file that is not a seed.
 */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createControlClient } from '../client/control.js';
import { defaultConfig } from '../config/index.js';
import { buildDeps } from '../deps.js';
import { memoryLog } from '../kernel/log.js';
import { connectedAgent } from '../testing/mcp.js';
import { startServer } from '../server.js';
import { cliContext } from '../testing/cli.js';
import { createTestSandbox } from '../testing/harness.js';
import { issuedCard } from '../testing/world.js';
import { HUNG_MS } from '../testing/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'small-cases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A request as sent, its path untouched (fetch and URL would resolve its dot segments first). */
function raw(url: string, method: string, path: string, body?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/`, { method, path, headers: body ? { 'Content-Type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

describe('an id of "." or ".." where an id belongs', () => {
  it.each(['.', '%2E', '%2e%2E', '..'])('/_sandbox/webhooks/%s/faults acts on no subscription, and on not all of them', async (segment) => {
    const running = await startServer(buildDeps(defaultConfig({ port: 0 }), { log: memoryLog() }));
    try {
      const set = await raw(running.url, 'PUT', `/_sandbox/webhooks/${segment}/faults`, '{"duplicate":0.5}');
      expect(set.status).toBeGreaterThanOrEqual(400);
      expect(set.status).toBeLessThan(500);
      if (set.status === 400) expect(set.body.errors).toEqual([{ path: 'webhookId', message: 'must be a UUID' }]);
      for (const method of ['DELETE', 'GET']) expect((await raw(running.url, method, `/_sandbox/webhooks/${segment}/faults`)).status).toBeLessThan(500);
      // The programme's own faults are as they were: none.
      expect((await raw(running.url, 'GET', '/_sandbox/webhooks/faults')).body).toEqual({ scope: 'programme', faults: {} });
    } finally {
      await running.close();
    }
  });

  it('the control client refuses it before sending anything', async () => {
    let sent = 0;
    const client = createControlClient({ baseUrl: 'http://127.0.0.1:9', fetch: () => (sent++, Promise.reject(new Error('sent'))) });
    for (const id of ['.', '..', ''])
      await expect(client.setSubscriptionFaults(id, { duplicate: 0.5 })).rejects.toThrow(`webhookId must be an id, got "${id}"`);
    expect(sent).toBe(0);
  });
});

describe('a request under way on a programme deleted meanwhile', () => {
  it('is answered 401, as its token would be now, not 500', async () => {
    const sb = createTestSandbox();
    const made = (await sb.json('POST', '/_sandbox/programmes', { token: false, body: {} })).body;
    const token = (await sb.json('POST', '/v1/auth/token', { token: false, body: { apiKey: made.apiKey, apiSecret: made.apiSecret } })).body.token;
    const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}?programme=${made.id}`, { token: false, body });
    // The request waits in the API fault lab's latency, past its token and programme, before it writes.
    await control('PUT', '/api/faults', { rules: [{ match: { operationId: 'saveWebhook' }, latency: '2s' }] });
    const underWay = sb.json('PUT', '/v1/webhooks', { token, body: { callbackUrl: 'http://127.0.0.1:9/hooks', types: [] } });
    await vi.waitFor(async () => expect((await control('GET', '/api/faults')).body.rules[0].hits).toBe(1), { timeout: HUNG_MS, interval: 10 });
    expect((await sb.request('DELETE', `/_sandbox/programmes/${made.id}`, { token: false })).status).toBe(204);
    const answered = await underWay;
    expect(answered.status).toBe(401);
    expect(answered.body).toMatchObject({ code: 'not_authorised', detail: expect.stringContaining('was deleted while this request was under way') });
    expect(sb.log.lines.filter((line) => line.level === 'error')).toEqual([]);
  });
});

describe('a forged token', () => {
  it('naming a programme of ten thousand characters: refused, its claim cut short in the answer', async () => {
    const sb = createTestSandbox();
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const prg = 'p'.repeat(10_000);
    const forged = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'x', prg, exp: 9e9 })}.${part({ s: 1 })}`;
    const refused = await sb.json('GET', '/v1/customers', { token: forged });
    expect(refused.status).toBe(401);
    expect(refused.body.detail.length).toBeLessThan(300);
    expect(refused.body.detail).toContain('(10000 characters)');
  });
});

describe('snapshots, bounded by their bytes too', () => {
  it('past --max-snapshot-bytes: 429 naming the option, with room again once one is deleted', async () => {
    const sb = createTestSandbox({ maxSnapshotBytes: 20_000 });
    await issuedCard(sb);
    const take = () => sb.json('POST', '/_sandbox/snapshots', { token: false, body: {} });
    const first = await take();
    expect(first.status).toBe(201);
    expect(first.body.bytes).toBeGreaterThan(5_000);
    let refused = await take();
    for (let more = 0; refused.status === 201 && more < 4; more++) refused = await take();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'snapshot_limit_reached', detail: expect.stringContaining('--max-snapshot-bytes 20000 bytes') });
    const kept = (await sb.json('GET', '/_sandbox/snapshots', { token: false })).body as { bytes: number }[];
    expect(kept.reduce((n, s) => n + s.bytes, 0)).toBeLessThanOrEqual(20_000);
    await sb.json('DELETE', `/_sandbox/snapshots/${first.body.id}`, { token: false });
    expect((await take()).status).toBe(201);
  });
});

describe('the MCP server', () => {
  it('adds no listener to stdout per call, and its seed tool says what is wrong with a file without a byte of it', async () => {
    const sb = createTestSandbox();
    const listening = process.stdout.listenerCount('error');
    const mcp = await connectedAgent(cliContext(sb).client, 'small-cases');
    try {
      for (let i = 0; i < 20; i++) await mcp.callTool({ name: 'clock', arguments: {} });
      expect(process.stdout.listenerCount('error') - listening).toBeLessThanOrEqual(1);

      const secret = join(dir, 'shadow');
      writeFileSync(secret, 'root:$6$the-secret-hash:19000:0:99999:7:::\n');
      for (const file of [secret, '/dev/zero']) {
        const result = (await mcp.callTool({ name: 'seed', arguments: { file } })) as { isError?: boolean; content: { text: string }[] };
        expect(result.isError).toBe(true);
        expect(result.content[0]!.text).toContain(file);
        expect(result.content[0]!.text).not.toMatch(/root|secret|\$6\$/);
      }
    } finally {
      await mcp.close();
    }
  });
});
