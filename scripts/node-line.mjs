// The oldest Node.js line card-sandbox runs on: package.json's `engines`, which bin/card-sandbox.cjs
// checks at every start too. On an older line the build would crash loading better-sqlite3's addon
// (built for the lines still maintained), so it says so first and stops.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
export const OLDEST = Number(/\d+/.exec(engines.node)[0]);

/** What is wrong with building on Node `version` (as `process.version` gives it), or undefined. */
export function nodeLineProblem(version) {
  if (Number(/^v?(\d+)/.exec(version)[1]) >= OLDEST) return undefined;
  return `card-sandbox needs Node.js ${OLDEST} or later; this is Node.js ${version}. Install a current LTS (22, 24 or 26).`;
}
