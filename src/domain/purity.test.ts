/**
 * domain/ holds pure rules: plain data in and out, `now` passed in. This keeps it so: no module
 * there imports the store, HTTP, the services or a network module, or reads the wall clock.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('.', import.meta.url));
const modules = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

const FORBIDDEN_IMPORTS = [
  /\.\.\/store\//,
  /\.\.\/http\//,
  /\.\.\/services\//,
  /\.\.\/webhooks\//,
  /\.\.\/wire\//,
  /^node:(http|https|net|fs|child_process)$/,
  /^hono/,
  /^drizzle-orm/,
  /^better-sqlite3$/,
];
const WALL_CLOCK = [/\bDate\.now\(/, /\bnew Date\(\)/, /\bperformance\.now\(/];

describe('domain/', () => {
  it('has modules to check', () => {
    expect(modules.length).toBeGreaterThan(10);
  });

  it.each(modules)('%s imports nothing impure and never reads the wall clock', (name) => {
    const source = readFileSync(`${dir}/${name}`, 'utf8');
    const imports = [...source.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
    expect(imports.filter((from) => FORBIDDEN_IMPORTS.some((re) => re.test(from)))).toEqual([]);
    expect(WALL_CLOCK.filter((re) => re.test(source)).map(String)).toEqual([]);
  });
});
