// jest.config.mjs. card-sandbox is an ES module: run jest with
// node --experimental-vm-modules node_modules/jest/bin/jest.js
export default {
  testEnvironment: 'node',
  testMatch: ['**/*.test.mjs'],
  // Native ES modules need no transform: without one, jest loads card-sandbox as it is, at once.
  transform: {},
  globalSetup: './global-setup.mjs',
  globalTeardown: './global-teardown.mjs',
  // How long before a test or hook counts as hung (jest's default, 5 s, is one a busy CI runner reaches).
  testTimeout: 60_000,
};
