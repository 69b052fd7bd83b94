/**
 * Where the package's shipped files are (drizzle/, fixtures/, package.json), found by walking up
 * from this module — the same answer from src/ under tests, dist/ and the single-file CLI bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'card-sandbox') return (root = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the card-sandbox package root');
    dir = parent;
  }
}

export const packagePath = (...parts: string[]): string => join(packageRoot(), ...parts);
