/**
 * The request log's lines go out once a turn of the event loop (log.ts batchedLines): together, in
 * the order they were logged, and never lost when the process exits right after logging them.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jsonLog } from './log.js';

const line = (path: string) => ({ method: 'GET', path, status: 200, ms: 1, requestId: 'r', warnings: [], replayed: false });

describe('the request log', () => {
  it('writes the lines of one turn together, in order, once the turn is over', async () => {
    const writes: string[] = [];
    const log = jsonLog((text) => writes.push(text), () => Date.parse('2026-03-01T09:00:00Z'));
    log.request(line('/v1/a'));
    log.request(line('/v1/b'));
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.trimEnd().split('\n').map((l) => JSON.parse(l).path)).toEqual(['/v1/a', '/v1/b']);
    log.warn('at once');
    expect(writes).toHaveLength(2);
  });

  it('writes what is pending when the process exits in the same turn', () => {
    const module = fileURLToPath(new URL('../dist/log.js', import.meta.url));
    const script = `const { jsonLog } = await import(${JSON.stringify(module)}); jsonLog().request(${JSON.stringify(line('/v1/last'))}); process.exit(0);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout).path).toBe('/v1/last');
  });
});
