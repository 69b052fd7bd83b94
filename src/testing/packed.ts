/**
 * The packaging tests' globalSetup (vitest.packaging.config.ts): `npm pack` once for the run, the
 * tarball and its list of files given to every test file as `inject('packed')`. npm packs with the
 * environment a user's shell has (no npm_config_* that `npm run` exports). Not shipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { assertBuilt, ROOT } from './spawn.js';

/** The packaging tests, which `npm test` leaves out and `npm run test:packaging` runs. */
export const PACKAGING_TESTS = 'src/**/*.packaging.test.ts';

export interface Packed {
  /** The tarball's path. */
  tarball: string;
  /** The paths inside it, as `npm pack --json` lists them. */
  files: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    packed: Packed;
  }
}

/** The environment a user's shell has: none of the npm_config_* that `npm test` exports here. */
export function userEnv(path = process.env.PATH ?? ''): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && !name.startsWith('CARD_SANDBOX_')));
  return { ...env, PATH: path, CI: 'true', NO_COLOR: '1' };
}

export default function setup(project: TestProject): () => void {
  assertBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-packed-'));
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', env: userEnv() })) as [
    { filename: string; files: { path: string }[] },
  ];
  project.provide('packed', { tarball: join(dir, packed.filename), files: packed.files.map((f) => f.path) });
  return () => rmSync(dir, { recursive: true, force: true });
}
