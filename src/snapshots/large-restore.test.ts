/**
 * A large restore into an empty world, written in steps (docs/snapshots.md: While things are under
 * way): another programme is answered while its rows are being written; the programme's own
 * requests wait and find its world whole; a restore that fails in the middle of its write leaves
 * the programme as it was, with none of the rows it had written.
 */
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { clashingFile, control, largeFile, otherProgramme, stored, turn } from '../testing/large-snapshot.js';
import { programmeState } from '../testing/snapshots.js';

describe('a large restore into an empty world', () => {
  it('is written in turns: another programme is answered meanwhile, and its own requests wait to find it whole', async () => {
    const sb = createTestSandbox();
    const file = largeFile();
    const total = JSON.parse(file).state.world.customers.length;
    const other = await otherProgramme(sb);
    const { id } = (await control(sb, 'GET', '/programmes/default')).body;

    const answered: string[] = [];
    const restoring = control(sb, 'POST', '/snapshots/restore', file).then((res) => (answered.push('restore'), res));
    // Until the first of its rows are written, and not all of them.
    for (let held = stored(sb, id); held === 0 || held === total; held = stored(sb, id)) {
      expect(answered, 'the restore was written in one go').toEqual([]);
      await turn();
    }
    const own = control(sb, 'GET', '/world/counts').then((res) => (answered.push('own counts'), res));
    const elsewhere = await other.customers();
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
    const file = clashingFile();
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
