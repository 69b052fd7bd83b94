/**
 * The package's entry, `card-sandbox`: the test companion (docs/companion.md: Helpers for your tests) and the
 * API client. `createSandbox()` is also the way to embed a sandbox in a process: its `config` takes
 * every option of `card-sandbox start`.
 */
export { createSandbox, type Sandbox, type SandboxClock, type SandboxOptions, type SandboxSnapshot, type SnapshotSource } from './companion/create-sandbox.js';
export type { DeliveryState, EventFilter, ListedEvent, SandboxEvent, SandboxEvents } from './companion/events.js';
export type { ForcePost, Refund, SandboxFees, SandboxSimulator } from './companion/money.js';
export type { SandboxFaults, StartingFaults, WebhookFaultsInput } from './companion/faults.js';
export type { ReceiverOptions, RefusedDelivery, WebhookReceiver } from './companion/receiver.js';
export { processingTally, type ProcessingTally } from './companion/processing.js';
export { junitXml as goLiveJunit } from './domain/report/junit.js';
export { WaitTimeoutError, type EventPredicate, type WaitOptions } from './companion/waiting.js';
export { createWallet, type Wallet, type WalletOptions } from './companion/wallet.js';
export * from './client/index.js';
export type { Config } from './config/index.js';
export { UnreachableError } from './client/control.js';
import type { Report } from './client/control.generated.js';

export type { ApiFaultRuleView, ApiFaultsView, Fees, Report, SnapshotCounts, SnapshotSummary } from './client/control.generated.js';
export type { ApiFaultMatch, ApiFaultRuleInput, ApiFaultsInput } from './domain/api-faults.js';
/** One check of the go-live report. */
export type Check = Report['checks'][number];
export type CheckStatus = Check['status'];
