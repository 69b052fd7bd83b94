/**
 * The package's entry, `card-sandbox`: the test companion (README: Helpers for your tests) and the
 * API client, then what embedding the sandbox in a process takes — build it from a configuration
 * and start it.
 */
export { createSandbox, type Sandbox, type SandboxClock, type SandboxOptions } from './companion/create-sandbox.js';
export type { DeliveryState, EventFilter, ListedEvent, SandboxEvent, SandboxEvents } from './companion/events.js';
export type { ReceiverOptions, RefusedDelivery, WebhookReceiver } from './companion/receiver.js';
export { WaitTimeoutError, type EventPredicate, type WaitOptions } from './companion/waiting.js';
export { createWallet, type Wallet, type WalletOptions } from './companion/wallet.js';
export * from './client/index.js';
export { createApp } from './app.js';
export { buildDeps } from './deps.js';
export { defaultConfig, resolveConfig, type Config } from './config.js';
export { startServer, type RunningSandbox } from './server.js';
