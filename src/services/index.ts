/**
 * A programme's use cases, wired together once per programme (programmes/registry.ts). Each service takes
 * the programme's core and the services it builds on; what programmes share — the ticker, the pool
 * of webhook connections, the engine and the money tables — is built once and passed in, and what
 * is the programme's own — its scheduler, which runs the due work the services add to it, its
 * webhook signer and its clock keeper — is handed in by the programme. Nothing here listens on a port.
 */
import type { Core } from './core.js';
import type { MoneyTables } from '../domain/money.js';
import type { Scheduler, Ticker } from '../kernel/scheduler.js';
import type { WebhookSigner } from '../webhooks/send.js';
import type { SendPool } from '../webhooks/send-pool.js';
import { createAccounts } from './accounts.js';
import { createApiFaults } from './api-faults.js';
import { createAuth } from './auth.js';
import { createAuthorisations } from './authorisations.js';
import { createCards } from './cards.js';
import { createCustomers } from './customers.js';
import { createDeliveryLab } from './delivery-lab.js';
import type { Engine } from './engine.js';
import { createEvents } from './outbox.js';
import { createFees } from './fees.js';
import { createRates } from './rates.js';
import { createFunds } from './funds.js';
import { createIdempotency } from './idempotency.js';
import { createJobs } from './jobs.js';
import { createRefunds } from './refunds.js';
import { createRetention } from './retention.js';
import { createSandboxControl, type ClockKeeper } from './sandbox.js';
import { createSandboxEvents } from './outbox-view.js';
import { createTransactions } from './transactions.js';
import { createWebhooks } from './webhooks.js';
import { createWorld } from './world.js';
import type { Tracing } from '../kernel/tracing.js';

/** What every programme shares. */
export interface Shared {
  /** The one timer of the whole sandbox, which every programme's scheduler is built on. */
  ticker: Ticker;
  pool: SendPool;
  engine: Engine;
  money: MoneyTables;
  /** Tracing, when it is on: every programme's core tells the same one. */
  tracing?: Tracing;
}

/** What is the programme's own, built with it (programmes/registry.ts). */
export interface ProgrammeParts {
  /** Runs the programme's due work: the jobs and the webhook dispatcher are added to it here. */
  scheduler: Scheduler;
  /** Signs the programme's webhooks: made or read when first needed. */
  signer: () => WebhookSigner;
  /** Keeps the programme's clock across restarts. */
  keepClock: ClockKeeper;
}

export function createServices(core: Core, { pool, engine, money }: Shared, { scheduler, signer, keepClock }: ProgrammeParts) {
  const jobs = createJobs(core, () => scheduler.kick());
  scheduler.add(jobs.source);
  const lab = createDeliveryLab(core, { kick: () => scheduler.kick() });
  const events = createEvents(core, { paused: lab.paused });
  const webhooks = createWebhooks(core, { events, scheduler, signer, pool, lab });
  scheduler.add(webhooks.dispatcher.source);
  const auth = createAuth(core);
  const idempotency = createIdempotency(core);
  const cards = createCards(core, { events, jobs });
  const accounts = createAccounts(core, { events, jobs, engine, cards });
  const customers = createCustomers(core, { events, engine, accounts });
  const fees = createFees(core, money);
  const rates = createRates(core, money);
  const funds = createFunds(core);
  // Conversions read the programme's rates as they are at that moment (docs/money-path.md: Moving rates).
  const transactions = createTransactions(core, { jobs, events, engine, fees, funds, money: rates.money });
  const authorisations = createAuthorisations(core, { jobs, events, transactions, funds, money: rates.money });
  const refunds = createRefunds(core, { transactions, money: rates.money });
  cards.onPayments(authorisations.paymentsChanged);
  const sandbox = createSandboxControl(core, {
    scheduler,
    engine,
    webhooks,
    lab,
    customers,
    accounts,
    cards,
    authorisations,
    transactions,
    refunds,
    funds,
    keepClock,
  });
  const sandboxEvents = createSandboxEvents(core);
  const retention = createRetention(core, { events });
  const world = createWorld(core);
  const apiFaults = createApiFaults(core);
  return {
    apiFaults,
    /** The programme's scheduler, as handed in: time travel in tests that hold only the services. */
    scheduler,
    jobs,
    events,
    webhooks,
    lab,
    auth,
    engine,
    idempotency,
    customers,
    accounts,
    cards,
    authorisations,
    transactions,
    fees,
    rates,
    funds,
    refunds,
    sandbox,
    sandboxEvents,
    retention,
    world,
  };
}

export type Services = ReturnType<typeof createServices>;
