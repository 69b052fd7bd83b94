/** Reads the data shipped in `fixtures/` (chains and assets, rates, seed worlds). */
import { readFileSync } from 'node:fs';
import { packagePath } from './paths.js';

export function readFixture<T>(name: string): T {
  return JSON.parse(readFileSync(packagePath('fixtures', name), 'utf8')) as T;
}
