import { defineConfig } from 'vitest/config';
import { BROWSER_TESTS, browserTestsLeftOut } from './src/testing/chromium.js';
import { PACKAGING_TESTS } from './src/testing/packed.js';
import { TEST_WORKERS } from './src/testing/workers.js';

// Without a Chromium the inspector's browser tests are left out, with one line saying how to run
// them; in CI they always run (src/testing/chromium.ts). The packaging tests run on their own
// (`npm run test:packaging`, vitest.packaging.config.ts).
const leftOut = browserTestsLeftOut();
if (leftOut) console.warn(`\n${leftOut}\n`);

const E2E = 'src/**/*.e2e.test.ts';
const exclude = ['**/node_modules/**', PACKAGING_TESTS, ...(leftOut ? [BROWSER_TESTS] : [])];

export default defineConfig({
  test: {
    // How long before a test or hook counts as hung: tests wait on events, never on times, so this
    // only has to be long enough that a loaded machine never reaches it (a nested test run or a tsc
    // took over a minute on a 2-core machine running several suites at once).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // expect.poll's own limit is 1 s: hung, like src/testing/wait.ts's HUNG_MS.
    expect: { poll: { timeout: 60_000 } },
    pool: 'forks',
    maxWorkers: TEST_WORKERS,
    projects: [
      // End-to-end files start processes, servers and browsers. They run first (vitest orders
      // projects by name), so that the longest are not left to the end.
      { extends: true, test: { name: 'e2e', include: [E2E], exclude, isolate: false } },
      // Every file, end-to-end or not, shares its worker's modules with the files run before them in
      // it, rather than import the app and the test helpers again for each (about 2 s of CPU a file):
      // none leaves behind anything another file sees (a process, a server, a spy, a variable).
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'ui/**/*.test.ts', 'examples/*.test.ts'], exclude: [...exclude, E2E], isolate: false },
      },
    ],
  },
});
