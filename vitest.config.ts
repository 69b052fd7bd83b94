import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { BROWSER_TESTS, browserTestsLeftOut } from './src/testing/chromium.js';
import { PACKAGING_TESTS } from './src/testing/packed.js';
import { TEST_WORKERS } from './src/testing/workers.js';

// Without a Chromium the inspector's browser tests are left out, with one line saying how to run
// them; in CI they always run (src/testing/chromium.ts). The packaging tests run on their own
// (`npm run test:packaging`, vitest.packaging.config.ts).
const leftOut = browserTestsLeftOut();
if (leftOut) console.warn(`\n${leftOut}\n`);

const endToEnd = (spec: TestSpecification) => spec.moduleId.endsWith('.e2e.test.ts');

/**
 * End-to-end files (`*.e2e.test.ts`: they start processes, servers and browsers) run first, in the
 * runner's own order (the longest first once it has timed them, the largest before), so that the
 * longest are not left to the end; the others fill the workers they leave waiting.
 */
class EndToEndFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter(endToEnd), ...sorted.filter((spec) => !endToEnd(spec))];
  }
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'ui/**/*.test.ts', 'examples/*.test.ts'],
    exclude: ['**/node_modules/**', PACKAGING_TESTS, ...(leftOut ? [BROWSER_TESTS] : [])],
    // How long before a test or hook counts as hung: tests wait on events, never on times, so this
    // only has to be long enough that a loaded machine never reaches it (a nested test run or a tsc
    // took over a minute on a 2-core machine running several suites at once).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // expect.poll's own limit is 1 s: hung, like src/testing/wait.ts's HUNG_MS.
    expect: { poll: { timeout: 60_000 } },
    pool: 'forks',
    maxWorkers: TEST_WORKERS,
    // One set of files, so that a worker goes on from an end-to-end file to any other (the runner
    // starts new workers for another project): every file shares its worker's modules with the files
    // run before it there, rather than import the app and the test helpers again (about 2 s of CPU a
    // file, and each worker's first imports about 10 s). None leaves behind anything another file
    // sees (a process, a server, a spy, a variable); the runner resets mocks and vi.setConfig after each.
    isolate: false,
    sequence: { sequencer: EndToEndFirst },
    // The inspector's test files share one Chromium, started when the first asks for it (src/testing/browser-server.ts).
    globalSetup: ['src/testing/browser-server.ts'],
  },
});
