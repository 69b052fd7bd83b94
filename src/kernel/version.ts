/** The package version, read once when first asked. */
import { readFileSync } from 'node:fs';
import { packagePath } from './paths.js';

let cached: string | undefined;

export function version(): string {
  cached ??= (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
