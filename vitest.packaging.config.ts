import { defineConfig } from 'vitest/config';
import { PACKAGING_TESTS } from './src/testing/packed.js';
import { TEST_WORKERS } from './src/testing/workers.js';

// `npm run test:packaging`: the package as users get it — the packed tarball installed with every
// npm and pnpm, run unpacked, and the image's stages replayed. It packs once for the run
// (src/testing/packed.ts); `npm test` leaves these files out (docs/architecture.md: Development).
export default defineConfig({
  test: {
    include: [PACKAGING_TESTS],
    globalSetup: ['src/testing/packed.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The files at once: their time goes on npm and pnpm installs and the image's stages, mostly waiting.
    maxWorkers: TEST_WORKERS,
  },
});
