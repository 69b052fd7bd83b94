/**
 * The shape of the house (docs/architecture.md: How the code is laid out): the root of src/ holds the
 * entry points and folders only, no module imports another that leads back to it (type-only imports
 * included), nor does a folder, the kernel imports nothing of the project, and no hand-written file
 * grows past 300 lines.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../kernel/paths.js';

const ROOT = packagePath();
const ENTRY_POINTS = ['app.ts', 'deps.ts', 'index.ts', 'server.ts'];
const MAX_LINES = 300;
const GENERATED = /\.generated\.ts$/;

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [path] : [];
  });
}

const SOURCES = [...filesUnder('src'), ...filesUnder('ui')];

/** The project modules a file imports, type-only imports and re-exports included, as paths from the package root. */
export function importsOf(file: string, source: string): string[] {
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm)].map(
    (m) => (m[1] ?? m[2])!,
  );
  return specifiers.flatMap((specifier) => {
    if (!specifier.startsWith('.')) return [];
    const base = resolve(ROOT, dirname(file), specifier);
    const target = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base].find(
      (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
    );
    return target ? [relative(ROOT, target)] : [];
  });
}

/** Every cycle of a graph, as the modules of each strongly connected component with more than one (or a self-import). */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('the house', () => {
  const graph = new Map(SOURCES.map((file) => [file, importsOf(file, readFileSync(join(ROOT, file), 'utf8'))]));

  it('keeps only the entry points and folders at the root of src/', () => {
    const loose = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isFile() && !ENTRY_POINTS.includes(e.name));
    expect(loose.map((e) => e.name)).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('keeps the kernel a leaf: it imports nothing of the project outside kernel/', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      file.startsWith('src/kernel/') && !file.endsWith('.test.ts') ? targets.filter((t) => !t.startsWith('src/kernel/')).map((t) => `${file} → ${t}`) : [],
    );
    expect(upward).toEqual([]);
  });

  it('has no two folders of src/ importing each other, through any chain of folders (the entry points at the root each count alone)', () => {
    const folderOf = (file: string) => (file.split('/').length > 2 ? file.split('/').slice(0, 2).join('/') : file);
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      if (!file.startsWith('src/') || file.endsWith('.test.ts')) continue;
      const from = folderOf(file);
      for (const target of targets) if (folderOf(target) !== from) folders.set(from, (folders.get(from) ?? new Set()).add(folderOf(target)));
    }
    expect(cyclesOf(new Map([...folders].map(([folder, targets]) => [folder, [...targets]])))).toEqual([]);
  });

  it(`has no hand-written file over ${MAX_LINES} lines`, () => {
    const long = [...SOURCES, ...filesUnder('scripts'), ...filesUnder('bench'), ...filesUnder('examples')]
      .filter((file) => !GENERATED.test(file))
      .map((file) => [file, readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length] as const)
      .filter(([, lines]) => lines > MAX_LINES)
      .map(([file, lines]) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });

  // The checks themselves: a cycle through a type-only import is found, and so is a self-import.
  it('finds the cycles it is meant to find', () => {
    const source = "import type { A } from './a.js';\nexport { B } from '../wire/b.js';\nimport {\n  c,\n} from './c.js';";
    expect(importsOf('src/domain/x.ts', source)).toEqual([]);
    expect(importsOf('src/kernel/clock.test.ts', "import type { Clock } from './clock.js';\nimport { iso } from '../domain/instant.js';")).toEqual([
      'src/kernel/clock.ts',
      'src/domain/instant.ts',
    ]);
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c'], ['d']]);
  });
});
