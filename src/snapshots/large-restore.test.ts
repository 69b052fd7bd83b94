/**
 * A large restore into an empty world, written in turns (docs/snapshots.md: While things are under
 * way): another programme is answered while its rows are being written; the programme's own
 * requests wait and find its world whole; a restore that fails in the middle of its write leaves
 * the programme as it was, with none of the rows it had written.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { programmeState } from '../testing/snapshots.js';
import { IN_TURNS_FROM } from './put-back.js';

const CURRENT = readFileSync(new URL('./fixtures/version-3.snapshot.json', import.meta.url), 'utf8');
const ADDED = IN_TURNS_FROM;

/** The fixture's world and ADDED customers more, its digest made to match; `last` changes the last one. */
function largeFile(last: (customer: Record<string, unknown>, first: Record<string, unknown>) => void = () => undefined): string {
  const json = JSON.parse(CURRENT);
  const customers = json.state.world.customers as Record<string, unknown>[];
  const model = customers[0]!;
  for (let i = 0; i < ADDED; i++) {
    const hex = i.toString(16).padStart(12, '0');
    customers.push({ ...model, id: `00000000-0000-4000-8000-${hex}`, externalId: `added-${i}`, chainId: `eip155:300:0x${hex.padStart(40, 'a')}` });
  }
  last(customers.at(-1)!, customers[customers.length - ADDED]!);
  json.sha256 = createHash('sha256').update(JSON.stringify(json.state)).digest('hex');
  return JSON.stringify(json);
}

const control = (sb: TestSandbox, method: string, path: string, body?: unknown, programme?: string) =>
  sb.json(method, `/_sandbox${path}`, { token: false, body, ...(programme && { headers: { 'Sandbox-Programme': programme } }) });

/** How many customers the programme's world holds in the database, whatever its requests are told. */
const stored = (sb: TestSandbox, programme: string) =>
  sb.deps.store.sqlite.prepare('SELECT count(*) FROM customers WHERE programme_id = ?').pluck().get(programme) as number;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a large restore into an empty world', () => {
  it('is written in turns: another programme is answered meanwhile, and its own requests wait to find it whole', async () => {
    const sb = createTestSandbox();
    const file = largeFile();
    const total = JSON.parse(file).state.world.customers.length;
    const other = (await control(sb, 'POST', '/programmes', {})).body;
    await control(sb, 'POST', '/seed', { customers: [{ externalId: 'elsewhere' }] }, other.id);
    const token = (await sb.json('POST', '/v1/auth/token', { token: false, body: { apiKey: other.apiKey, apiSecret: other.apiSecret } })).body.token;
    const { id } = (await control(sb, 'GET', '/programmes/default')).body;

    const answered: string[] = [];
    const restoring = control(sb, 'POST', '/snapshots/restore', file).then((res) => (answered.push('restore'), res));
    // Until the first of its rows are written, and not all of them.
    for (let held = stored(sb, id); held === 0 || held === total; held = stored(sb, id)) {
      expect(answered, 'the restore was written in one go').toEqual([]);
      await turn();
    }
    const own = control(sb, 'GET', '/world/counts').then((res) => (answered.push('own counts'), res));
    const elsewhere = await sb.json('GET', '/v1/customers', { token });
    answered.push('elsewhere');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.map((c: { externalId: string }) => c.externalId)).toEqual(['elsewhere']);
    expect((await restoring).status).toBe(200);
    expect((await own).body.customers).toBe(total);
    // The other programme first; the programme's own request, once its world was whole.
    expect(answered[0]).toBe('elsewhere');
  });

  it('that fails in the middle of its write leaves the programme as it was, and none of the rows it wrote', async () => {
    const sb = createTestSandbox();
    const { id } = (await control(sb, 'GET', '/programmes/default')).body;
    await control(sb, 'PUT', '/api/faults', { rules: [{ match: { method: 'GET' }, latency: '10ms' }] });
    await control(sb, 'POST', '/clock/advance', { by: '3d' });
    const before = await programmeState(sb);
    // The last customer is the first one's twin: its chain id differs only in case, which only the database's index sees.
    const file = largeFile((last, first) =>
      Object.assign(last, { chainId: String(first.chainId).toUpperCase().replace('EIP155', 'eip155').replace('0X', '0x') }),
    );
    let written = 0;
    const refused = control(sb, 'POST', '/snapshots/restore', file);
    let settled = false;
    void refused.then(() => (settled = true));
    while (!settled) {
      written = Math.max(written, stored(sb, id));
      await turn();
    }
    const res = await refused;
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/rows do not fit together .* nothing was restored/);
    expect(written).toBeGreaterThan(0);
    expect(stored(sb, id)).toBe(0);
    expect(await programmeState(sb)).toEqual(before);
  });
});
