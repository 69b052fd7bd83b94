import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordRunning, runningSandboxes } from './run-files.js';

let dir: string;
let saved: string | undefined;
beforeEach(() => {
  saved = process.env.TMPDIR;
  dir = mkdtempSync(join(tmpdir(), 'card-sandbox-run-files-'));
  process.env.TMPDIR = dir;
});
afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('run files', () => {
  it('record a running sandbox until it is forgotten', () => {
    expect(runningSandboxes()).toEqual([]);
    const forget = recordRunning('http://127.0.0.1:5000');
    expect(runningSandboxes()).toEqual([{ pid: process.pid, url: 'http://127.0.0.1:5000' }]);
    forget();
    expect(runningSandboxes()).toEqual([]);
  });

  it('drop the record of a process that is gone, and skip what is not a record', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const folder = join(dir, `card-sandbox-${process.getuid?.() ?? 'user'}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${gone}.json`), JSON.stringify({ pid: Number(gone), url: 'http://127.0.0.1:5001' }));
    writeFileSync(join(folder, '1.json'), 'half-written');
    writeFileSync(join(folder, 'notes.txt'), 'not a record');
    expect(runningSandboxes()).toEqual([]);
    expect(readdirSync(folder).sort()).toEqual(['1.json', 'notes.txt']);
  });
});
