/** Embedding the sandbox in a test process: build it from a configuration and start it. */
export { createApp } from './app.js';
export { buildDeps } from './deps.js';
export { defaultConfig, resolveConfig, type Config } from './config.js';
export { startServer, type RunningSandbox } from './server.js';
