// vitest.config.ts
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./global-setup.ts'],
    // How long before a test or hook counts as hung: the defaults (5 s, 10 s) are ones a busy CI runner reaches.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
