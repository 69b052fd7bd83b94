/**
 * A suite that does not depend on the machine's speed (docs/architecture.md: Development): no test
 * asserts that something took less than a given time — on a loaded machine or a busy CI runner
 * anything can be slow — and every test waits on the event it is about, with a limit that only
 * says "hung". This reads the test files, as a reviewer would, for the two shapes such an
 * assertion takes: the elapsed time in the expectation, or in a variable that one expects.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../kernel/paths.js';

const ROOT = packagePath();

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return /\.test\.(ts|tsx|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** `<clock>.now() - <since>`: a time elapsed on the machine. */
const ELAPSED = String.raw`(?:Date|performance)\.now\(\)\s*-\s*[\w$.]+`;
const AT_MOST = String.raw`\s*\)\s*\.(?:not\.)?toBeLessThan(?:OrEqual)?\(`;

/** The places in `source` where a test expects a time elapsed to be under a bound. */
export function timedAssertions(source: string): string[] {
  const found = [...source.matchAll(new RegExp(String.raw`expect\(\s*${ELAPSED}${AT_MOST}`, 'g'))].map((m) => m[0]);
  for (const [, name] of source.matchAll(new RegExp(String.raw`(?:const|let)\s+([\w$]+)\s*=\s*${ELAPSED}`, 'g')))
    found.push(...[...source.matchAll(new RegExp(String.raw`expect\(\s*${name!.replace(/\$/g, '\\$')}${AT_MOST}`, 'g'))].map((m) => m[0]));
  return found;
}

describe('the test suite', () => {
  it('recognises an assertion on elapsed time, and not a wall-clock check or a lower bound', () => {
    expect(timedAssertions('const t = Date.now(); await stop();\nexpect(Date.now() - t).toBeLessThan(7_000);')).toHaveLength(1);
    expect(timedAssertions('const took = performance.now() - started;\nexpect(took).toBeLessThanOrEqual(100);')).toHaveLength(1);
    expect(timedAssertions('expect(Math.abs(created - Date.now() / 1000)).toBeLessThan(60);')).toEqual([]);
    expect(timedAssertions('expect(performance.now() - started).toBeGreaterThanOrEqual(295);')).toEqual([]);
  });

  it('asserts no elapsed time against a limit the machine’s load could break', () => {
    // This file's own examples above are left out.
    const files = ['src', 'ui', 'examples', 'bench'].flatMap((dir) => testFiles(dir)).filter((file) => file !== 'src/suites/untimed.test.ts');
    expect(files.length).toBeGreaterThan(100);
    const timed = files.flatMap((file) => timedAssertions(readFileSync(join(ROOT, file), 'utf8')).map((at) => `${file}: ${at}`));
    expect(timed).toEqual([]);
  });
});
