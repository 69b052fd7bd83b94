/**
 * The request log's lines go out once a turn of the event loop (log.ts batchedLines): together, in
 * the order they were logged, and never lost when the process exits right after logging them.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { createIo } from '../cli/io.js';
import { faultNote } from '../wire/fault-text.js';
import { jsonLog } from './log.js';

const line = (path: string) => ({ method: 'GET', path, status: 200, ms: 1, requestId: 'r', warnings: [], replayed: false });

describe('the request log', () => {
  it('writes the lines of one turn together, in order, once the turn is over', async () => {
    const writes: string[] = [];
    const log = jsonLog(
      (text) => writes.push(text),
      () => Date.parse('2026-03-01T09:00:00Z'),
    );
    log.request(line('/v1/a'));
    log.request(line('/v1/b'));
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(
      writes[0]!
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).path),
    ).toEqual(['/v1/a', '/v1/b']);
    log.warn('at once');
    expect(writes).toHaveLength(2);
  });

  it('writes what is pending when the process exits in the same turn', () => {
    const module = fileURLToPath(new URL('../../dist/kernel/log.js', import.meta.url));
    const script = `const { jsonLog } = await import(${JSON.stringify(module)}); jsonLog().request(${JSON.stringify(line('/v1/last'))}); process.exit(0);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout).path).toBe('/v1/last');
  });
});

describe('the readable request log', () => {
  it('gives each line the time it was logged at, and a replay and its warnings after the status', async () => {
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (chunk) => (text += chunk));
    const log = createIo(stdout, new PassThrough(), { NO_COLOR: '1' }).log();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.parse('2026-03-01T09:00:00.120Z'));
      log.request(line('/v1/a'));
      log.request({ ...line('/v1/b'), replayed: true, warnings: ['no signature'] });
      vi.setSystemTime(Date.parse('2026-03-01T09:00:00.121Z'));
      log.request(line('/v1/c'));
    } finally {
      vi.useRealTimers();
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(text.trimEnd().split('\n')).toEqual([
      '09:00:00.120 GET    /v1/a 200 1ms',
      '09:00:00.120 GET    /v1/b 200 1ms replayed ⚠ no signature',
      '09:00:00.121 GET    /v1/c 200 1ms',
    ]);
  });
});

describe('a request the API fault lab faulted', () => {
  const faulted = (status: number, fault: Parameters<typeof faultNote>[0]) => ({ ...line('/v1/customers'), status, fault, faultText: faultNote(fault) });
  const reset = faulted(0, { reset: true, effect: 'before', source: 2 });
  const injected = faulted(503, { status: 503, effect: 'after', source: 'header' });
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('is logged as JSON with its fault, at info: a fault asked for is no error of the sandbox', async () => {
    const writes: string[] = [];
    const log = jsonLog((text) => writes.push(text));
    log.request(injected);
    log.request({ ...line('/v1/customers'), status: 503 });
    await turn();
    const [faulted, failed] = writes[0]!
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect([faulted.level, faulted.status, faulted.fault]).toEqual(['info', 503, { status: 503, effect: 'after', source: 'header' }]);
    expect(failed.level).toBe('error');
  });

  it('reads "no answer" for a closed connection, and names the fault, in the readable log', async () => {
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (chunk) => (text += chunk));
    const log = createIo(stdout, new PassThrough(), { NO_COLOR: '1' }).log();
    log.request(reset);
    log.request(injected);
    await turn();
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((l) => l.slice(13)),
    ).toEqual(['GET    /v1/customers no answer 1ms fault reset effect=before (rule 2)', 'GET    /v1/customers 503 1ms fault status=503 effect=after (header)']);
  });
});
