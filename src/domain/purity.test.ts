/**
 * domain/ holds pure rules: plain data in and out, `now` passed in. This keeps it so: no module
 * there imports anything of the project outside domain/, or a package that does I/O, or reads the
 * wall clock.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('.', import.meta.url));
// Its folders' modules too (report/), named by their path within domain/.
const modules = (readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

/** The packages that reach a file, a socket or the database. */
const FORBIDDEN_IMPORTS = [/^node:(http|https|net|fs|child_process)$/, /^hono/, /^drizzle-orm/, /^better-sqlite3$/];
const importsOf = (source: string) =>
  [...source.matchAll(/^(?:import|export)[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]/gm)].map((m) => (m[1] ?? m[2])!);
/** What a module at `name` (within domain/) imports from outside domain/, or of those packages. */
const forbidden = (source: string, name = 'module.ts') =>
  importsOf(source).filter((from) =>
    from.startsWith('.') ? relative(dir, join(dir, dirname(name), from)).startsWith('..') : FORBIDDEN_IMPORTS.some((re) => re.test(from)),
  );
const WALL_CLOCK = [/\bDate\.now\(/, /\bnew Date\(\)/, /\bperformance\.now\(/];

describe('domain/', () => {
  it('has modules to check', () => {
    expect(modules.length).toBeGreaterThan(10);
  });

  it.each(modules)('%s imports nothing impure and never reads the wall clock', (name) => {
    const source = readFileSync(`${dir}/${name}`, 'utf8');
    expect(forbidden(source, name)).toEqual([]);
    expect(WALL_CLOCK.filter((re) => re.test(source)).map(String)).toEqual([]);
  });

  it('catches an import from outside domain/, a type-only one and a re-export included', () => {
    const source = [
      "import { z } from 'zod';",
      "import { iso } from './instant.js';",
      "import type { Clock } from '../kernel/clock.js';",
      'import {\n  a,\n  b,\n} from "../wire/report.js";',
      "export { x } from '../services/core.js';",
      "import 'node:fs';",
    ].join('\n');
    expect(forbidden(source)).toEqual(['../kernel/clock.js', '../wire/report.js', '../services/core.js', 'node:fs']);
    // From a folder of domain/, one level up is still domain/; two are not.
    expect(forbidden("import { MUTATIONS } from '../idempotency.js';\nimport { x } from '../../wire/report.js';", 'report/retries.ts')).toEqual([
      '../../wire/report.js',
    ]);
  });
});
