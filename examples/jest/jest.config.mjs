// jest.config.mjs. card-sandbox is an ES module: run jest with
// node --experimental-vm-modules node_modules/jest/bin/jest.js
export default {
  testEnvironment: 'node',
  testMatch: ['**/*.test.mjs'],
  globalSetup: './global-setup.mjs',
  globalTeardown: './global-teardown.mjs',
};
