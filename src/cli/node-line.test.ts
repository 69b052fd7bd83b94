/**
 * The oldest Node.js line (scripts/node-line.mjs): the build refuses an older one with a clear
 * error rather than crashing in better-sqlite3's addon, and names the same line as the engines
 * field and the bin's own check at start.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const { OLDEST, nodeLineProblem } = (await import(pathToFileURL(join(ROOT, 'scripts', 'node-line.mjs')).href)) as {
  OLDEST: number;
  nodeLineProblem: (version: string) => string | undefined;
};

describe('the oldest Node.js line', () => {
  it('is refused below it, naming both versions, and passed from it on', () => {
    expect(nodeLineProblem('v20.20.2')).toBe('card-sandbox needs Node.js 22 or later; this is Node.js v20.20.2. Install a current LTS (22, 24 or 26).');
    expect(nodeLineProblem('v21.7.3')).toMatch(/needs Node\.js 22 or later/);
    for (const version of ['v22.0.0', 'v24.22.3', 'v26.12.1', process.version]) expect(nodeLineProblem(version)).toBeUndefined();
  });

  it('is the one the bin checks at every start', () => {
    expect(OLDEST).toBe(22);
    expect(readFileSync(join(ROOT, 'bin', 'card-sandbox.cjs'), 'utf8')).toContain(`if (major < ${OLDEST}) {`);
  });
});
