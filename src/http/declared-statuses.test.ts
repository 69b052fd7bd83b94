/**
 * Route × status: every operation of both documents is sent the requests that make the pipeline
 * answer on its own — a Host the sandbox does not serve, a body that is not JSON where one is
 * read, one over the limit, an id that names nothing, a programme that does not exist, the API fault lab's header —
 * and the table of the statuses seen is compared with the statuses each operation declares: each
 * one seen is declared (the harness checks every answer of the suite the same way), and each of
 * these the pipeline promises is seen.
 */
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';

type Operation = { responses: Record<string, unknown>; requestBody?: unknown };
type Document = { paths: Record<string, Record<string, Operation>> };

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const TOO_LARGE = JSON.stringify({ padding: 'x'.repeat(1_048_577) });

describe('route × status', () => {
  it('sees, for each operation, only statuses it declares, and each status the pipeline declares on it', async () => {
    const sb = createTestSandbox();
    const api = (await sb.json('GET', '/openapi.json', { token: false })).body as Document;
    const control = (await sb.json('GET', '/_sandbox/openapi.json', { token: false })).body as Document;
    const operations = [
      ...Object.entries(api.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ plane: 'api', path: `/v1${path}`, method, op }))),
      ...Object.entries(control.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ plane: 'control', path, method, op }))),
    ];
    const table = new Map<string, Set<string>>();
    const undeclared: string[] = [];
    const missing: string[] = [];
    for (const { plane, path, method, op } of operations) {
      const target = path.replace(/\{\w+\}/g, UNKNOWN);
      const seen = new Set<string>();
      const send = async (expected: string, options: Parameters<typeof sb.request>[2] = {}) => {
        const res = await sb.request(method.toUpperCase(), target, options);
        await res.arrayBuffer();
        seen.add(String(res.status));
        if (!(String(res.status) in op.responses)) undeclared.push(`${method.toUpperCase()} ${path} ${res.status}`);
        if (expected !== String(res.status)) missing.push(`${method.toUpperCase()} ${path}: expected ${expected}, answered ${res.status}`);
      };
      await send('403', { headers: { Host: 'elsewhere.example' } });
      if (op.requestBody) await send('400', { body: 'not json' });
      // The snapshot file's own limit is 64 MiB: its 413 is in control-snapshots' tests.
      if (method !== 'get' && path !== '/_sandbox/snapshots/restore') await send('413', { body: TOO_LARGE, headers: { 'Content-Type': 'application/json' } });
      if (plane === 'control' && !path.startsWith('/_sandbox/programmes')) await send('404', { headers: { 'Sandbox-Programme': UNKNOWN } });
      if (plane === 'api' && path !== '/v1/auth/token')
        for (const status of ['429', '502', '503', '504']) await send(status, { headers: { 'Sandbox-Fault': `status=${status}` } });
      table.set(`${method.toUpperCase()} ${path}`, seen);
    }
    expect(undeclared).toEqual([]);
    expect(missing).toEqual([]);
    expect(table.size).toBe(operations.length);
    expect(operations.length).toBeGreaterThanOrEqual(46 + 50);
  });
});
