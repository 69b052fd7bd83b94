import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../testing/spawn.js';

// The bin compiles the bundle with V8's code cache beside it. A cache that is missing, damaged, made
// by another Node version or for another bundle must never stop the CLI or change what it does: it
// runs, and leaves a cache this Node accepts (one the next run leaves alone: a rewrite replaces the
// file, so its inode changes).
const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-cache-'));
const cache = join(dir, 'dist', 'card-sandbox.cjs.cache');
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const bundle = join(dir, 'dist', 'card-sandbox.cjs');
const run = (arg = '--version') => execFileSync(process.execPath, [join(dir, 'bin', 'card-sandbox.cjs'), arg], { encoding: 'utf8' }).trim();

beforeAll(() => {
  assertBuilt();
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist'));
  copyFileSync(join(ROOT, 'bin', 'card-sandbox.cjs'), join(dir, 'bin', 'card-sandbox.cjs'));
  copyFileSync(join(ROOT, 'dist', 'card-sandbox.cjs'), bundle);
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the code cache', () => {
  it('is written by a run without one, and used as it is by the next', () => {
    rmSync(cache, { force: true });
    expect(run()).toBe(version);
    const written = statSync(cache);
    expect(written.size).toBeGreaterThan(0);
    expect(run()).toBe(version);
    expect(statSync(cache).ino).toBe(written.ino);
  });

  it('damaged or foreign, is ignored and replaced by one this Node accepts', () => {
    writeFileSync(cache, 'not a V8 code cache');
    expect(run()).toBe(version);
    expect(readFileSync(cache, 'latin1')).not.toBe('not a V8 code cache');
    const replaced = statSync(cache);
    expect(run()).toBe(version);
    expect(statSync(cache).ino).toBe(replaced.ino);
  });

  it('made for another bundle of the same size is not used', () => {
    // V8 alone would accept this cache (it only compares the source's length) and run the old code.
    rmSync(cache);
    expect(run('--help')).toMatch(/^Usage: card-sandbox/);
    const source = readFileSync(bundle, 'utf8');
    writeFileSync(bundle, source.replace('Usage:', 'Usagf:'));
    try {
      expect(run('--help')).toMatch(/^Usagf: card-sandbox/);
    } finally {
      writeFileSync(bundle, source);
    }
  });

  it('is read whatever the bundle holds: characters outside ASCII, a cache larger or smaller than the bundle', () => {
    // The build keeps the bundle ASCII (scripts/bundle.mjs); the bin still reads any UTF-8 as written.
    const source = readFileSync(bundle, 'utf8');
    try {
      writeFileSync(bundle, source.replace('Usage:', 'Usagé:'));
      expect(run('--help')).toMatch(/^Usagé: card-sandbox/);
      expect(run('--help')).toMatch(/^Usagé: card-sandbox/);
      writeFileSync(cache, readFileSync(cache).subarray(0, 32));
      expect(run('--help')).toMatch(/^Usagé: card-sandbox/);
      expect(statSync(cache).size).toBeGreaterThan(32);
      writeFileSync(cache, Buffer.concat([readFileSync(cache), Buffer.alloc(statSync(bundle).size)]));
      expect(run('--help')).toMatch(/^Usagé: card-sandbox/);
    } finally {
      writeFileSync(bundle, source);
    }
  });

  it('ships with the build', () => {
    expect(existsSync(join(ROOT, 'dist', 'card-sandbox.cjs.cache'))).toBe(true);
  });
});
