import { defineConfig } from 'vitest/config';
import { BROWSER_TESTS, browserTestsLeftOut } from './src/testing/chromium.js';

// Without a Chromium the inspector's browser tests are left out, with one line saying how to run
// them; in CI they always run (src/testing/chromium.ts).
const leftOut = browserTestsLeftOut();
if (leftOut) console.warn(`\n${leftOut}\n`);

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'ui/**/*.test.ts', 'examples/*.test.ts'],
    exclude: ['**/node_modules/**', ...(leftOut ? [BROWSER_TESTS] : [])],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
