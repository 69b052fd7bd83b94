import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { userEnv } from '../testing/packed.js';
import { ROOT } from '../testing/spawn.js';

// card-sandbox as a user's project has it (README: Quick start): the packed tarball as a
// devDependency beside vitest and TypeScript, its lockfile made where a C toolchain exists, then
// installed as CI images without one install it — `npm ci` with npm 10.8, 10.9 and 11, and
// `pnpm install --frozen-lockfile` — with no python3, make or C compiler on the PATH and nothing
// in the project's package.json about install scripts. After each install the manual's journey
// (examples/journey.test.ts, docs/companion.md: Helpers for your tests) runs under the project's
// vitest; a strict TypeScript project (skipLibCheck off) imports both entries without an error. npm and pnpm come from the registry, as in users' images.
// vite as this repository's lockfile has it: vite 8.4 names an optional dependency that a registry
// mirror may not hold, which npm 11 then leaves out of the lockfile it makes, and its `npm ci` refuses.
const DEV_DEPENDENCIES = { vitest: '^4.1.12', vite: '~8.3.8', typescript: '^5.9.3', '@types/node': '^22.20.5' };
const TOOLCHAIN = /^(python.*|make|gmake|cmake|cc|c89.*|c99.*|gcc.*|g\+\+.*|c\+\+|cpp.*|clang.*|x86_64-linux-gnu-(gcc|g\+\+|cpp|python).*)$/;

const work = mkdtempSync(join(tmpdir(), 'card-sandbox-install-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// The run's one packed tarball (src/testing/packed.ts).
const { tarball } = inject('packed');
let bareEnv: NodeJS.ProcessEnv = {};

/** A directory of links to everything in /usr/bin but a toolchain, and this Node's own bin. */
function pathWithoutToolchain(): string {
  const bin = join(work, 'bare-bin');
  mkdirSync(bin);
  for (const name of readdirSync('/usr/bin')) if (!TOOLCHAIN.test(name)) symlinkSync(join('/usr/bin', name), join(bin, name));
  return [dirname(process.execPath), bin].join(delimiter);
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 240_000 });
}

function expectOk(result: SpawnSyncReturns<string>): void {
  expect(result.error).toBeUndefined();
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
}

/** A user's project: package.json, the journey test, a strict tsconfig, its lockfile. */
function project(name: string, lockWith: string[]): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name, private: true, type: 'module', devDependencies: { 'card-sandbox': `file:${tarball}`, ...DEV_DEPENDENCIES } }, null, 2),
  );
  copyFileSync(join(ROOT, 'examples/journey.test.ts'), join(dir, 'journey.test.ts'));
  writeFileSync(
    join(dir, 'uses-both.ts'),
    "import { createSandbox, type Sandbox } from 'card-sandbox';\nimport { createClient, verifyWebhook } from 'card-sandbox/client';\nexport const used: [typeof createSandbox, typeof createClient, typeof verifyWebhook] = [createSandbox, createClient, verifyWebhook];\nexport type Kept = Sandbox['client'];\n",
  );
  const compilerOptions = {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    types: ['node'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['uses-both.ts'] }));
  // The lockfile is made with the machine's toolchain and the user's own npm or pnpm.
  expectOk(run(lockWith[0]!, [...lockWith.slice(1)], dir, userEnv()));
  return dir;
}

beforeAll(() => {
  bareEnv = userEnv(pathWithoutToolchain());
});

const installs = [
  {
    name: 'npm 10.8',
    lock: ['npx', '-y', 'npm@10.8', 'install', '--package-lock-only', '--no-audit', '--no-fund'],
    install: ['npx', '-y', 'npm@10.8', 'ci', '--no-audit', '--no-fund'],
  },
  {
    name: 'npm 10.9',
    lock: ['npx', '-y', 'npm@10.9', 'install', '--package-lock-only', '--no-audit', '--no-fund'],
    install: ['npx', '-y', 'npm@10.9', 'ci', '--no-audit', '--no-fund'],
  },
  {
    name: 'npm 11',
    lock: ['npx', '-y', 'npm@11', 'install', '--package-lock-only', '--no-audit', '--no-fund'],
    install: ['npx', '-y', 'npm@11', 'ci', '--no-audit', '--no-fund'],
  },
  { name: 'pnpm 10', lock: ['npx', '-y', 'pnpm@10', 'install', '--lockfile-only'], install: ['npx', '-y', 'pnpm@10', 'install', '--frozen-lockfile'] },
];

describe.skipIf(process.platform !== 'linux')('installed from the tarball with no C toolchain on the PATH', () => {
  test('the PATH the installs get has no compiler, make or python', () => {
    for (const tool of ['python3', 'make', 'cc', 'gcc', 'g++']) expect(run('sh', ['-c', `command -v ${tool}`], work, bareEnv).status).not.toBe(0);
    expect(run('sh', ['-c', 'command -v node'], work, bareEnv).stdout.trim()).toBe(process.execPath);
  });

  test('npx runs it straight from the tarball, as the README shows until it is on the registry', () => {
    const dir = join(work, 'npx');
    mkdirSync(dir);
    const run = spawnSync('npx', ['-y', '--package', tarball, 'card-sandbox', '--version'], { cwd: dir, env: bareEnv, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  }, 180_000);

  test.each(installs)(
    '$name installs it, the journey passes and a strict project type-checks',
    ({ name, lock, install }) => {
      const dir = project(name.replace(/\W+/g, '-'), lock);
      expectOk(run(install[0]!, install.slice(1), dir, bareEnv));
      expectOk(run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'journey.test.ts'], dir, bareEnv));
      const tsc = run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], dir, bareEnv);
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    },
    300_000,
  );
});
