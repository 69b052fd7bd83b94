// What a build is made from, as one SHA-256: the path and content of every file under the sources
// (tests and the generated clients left out), in a fixed order. The build records it in
// dist/sources.sha256; `npm start` (ensure-built.mjs) builds again only when it differs, so that a
// file rewritten with the same content (`npm i` rewriting package-lock.json) costs no build.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const SOURCES = ['src', 'ui', 'scripts', 'drizzle', 'package.json', 'package-lock.json'];
export const RECORD = 'dist/sources.sha256';

const skipped = (name) => name.includes('.test.') || name.endsWith('.generated.ts');

/** Every file under `path`, sorted, relative to `root`. */
function files(root, path) {
  let stat;
  try {
    stat = statSync(join(root, path));
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return [path];
  return readdirSync(join(root, path))
    .filter((name) => !skipped(name))
    .sort()
    .flatMap((name) => files(root, `${path}/${name}`));
}

export function sourcesHash(root = '.') {
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap((source) => files(root, source))) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}
