// Run with: node --experimental-vm-modules node_modules/jest/bin/jest.js (card-sandbox is an ES module).
export default {
  testEnvironment: 'node',
  testMatch: ['**/*.test.mjs'],
  globalSetup: './global-setup.mjs',
  globalTeardown: './global-teardown.mjs',
};
