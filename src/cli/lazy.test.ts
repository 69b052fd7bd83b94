/**
 * The CLI loads the server side only for the commands that run a sandbox (src/cli/README.md): from
 * its entry, the modules evaluated at every start are those its static value imports reach; the
 * server, the app, the store and the services are reached only through import().
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../kernel/paths.js';

const ROOT = packagePath();

/** The project modules `file` imports for their values: type-only imports and import() left out. */
function valueImports(file: string): string[] {
  const source = readFileSync(resolve(ROOT, file), 'utf8');
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]/gm)].map((m) => m[1]!);
  return specifiers.flatMap((specifier) => {
    const target = resolve(ROOT, dirname(file), specifier).replace(/\.js$/, '.ts');
    return existsSync(target) ? [relative(ROOT, target)] : [];
  });
}

/** Every module evaluated when `entry` is. */
function loadedBy(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    valueImports(file).forEach(visit);
  };
  visit(entry);
  return seen;
}

const SERVER_SIDE = ['src/server.ts', 'src/app.ts', 'src/deps.ts', 'src/store/store.ts', 'src/services/index.ts', 'src/snapshots/file.ts'];

describe('what the CLI loads', () => {
  it('evaluates the commands at every start, and not the server, the app, the store or the services', () => {
    const loaded = loadedBy('src/cli/main.ts');
    expect(loaded).toContain('src/cli/commands/start.ts');
    expect(loaded).toContain('src/cli/commands/lists.ts');
    expect(SERVER_SIDE.filter((file) => loaded.has(file))).toEqual([]);
  });

  it('leaves node:fs/promises (node:readline and more) to the commands that read or write a file through it', () => {
    const importers = [...loadedBy('src/cli/main.ts')].filter((file) =>
      /^\s*import\s+(?!type\b)[^'"]*\bfrom\s*['"](node:)?fs\/promises['"]/m.test(readFileSync(resolve(ROOT, file), 'utf8')),
    );
    expect(importers).toEqual([]);
  });

  it('loads them with the sandbox that `start` runs', () => {
    const loaded = loadedBy('src/cli/commands/start-sandbox.ts');
    expect(SERVER_SIDE.filter((file) => !loaded.has(file))).toEqual([]);
  });
});
