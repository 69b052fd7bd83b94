/**
 * The use cases, wired together once per sandbox. Each service takes the core dependencies and
 * the services it builds on; nothing here listens on a port.
 */
import type { Core } from '../core.js';
import { createAccounts } from './accounts.js';
import { createAuth } from './auth.js';
import { createAuthorisations } from './authorisations.js';
import { createCards } from './cards.js';
import { createCustomers } from './customers.js';
import { createEngine } from './engine.js';
import { createEvents } from './events.js';
import { createIdempotency } from './idempotency.js';
import { createJobs } from './jobs.js';
import { createRetention } from './retention.js';
import { createSandbox } from './sandbox.js';
import { createSandboxEvents } from './sandbox-events.js';
import { createScheduler } from '../scheduler.js';
import { createTransactions } from './transactions.js';
import { createWebhooks } from './webhooks.js';

export function createServices(core: Core) {
  const scheduler = createScheduler(core.clock, core.log);
  const jobs = createJobs(core, () => scheduler.kick());
  scheduler.add(jobs.source);
  const events = createEvents(core);
  const webhooks = createWebhooks(core, { events, scheduler });
  scheduler.add(webhooks.dispatcher.source);
  const auth = createAuth(core);
  auth.init();
  const engine = createEngine(core.config.env);
  const idempotency = createIdempotency(core);
  const cards = createCards(core, { events, jobs });
  const accounts = createAccounts(core, { events, jobs, engine, cards });
  const customers = createCustomers(core, { events, engine, accounts });
  const transactions = createTransactions(core, { jobs, events, engine });
  const authorisations = createAuthorisations(core, { jobs, events, transactions });
  cards.onTerminate(authorisations.holdAfterTermination);
  const sandbox = createSandbox(core, { scheduler, engine, webhooks, customers, accounts, cards });
  const sandboxEvents = createSandboxEvents(core);
  const retention = createRetention(core, { events });
  return { scheduler, jobs, events, webhooks, auth, engine, idempotency, customers, accounts, cards, authorisations, transactions, sandbox, sandboxEvents, retention };
}

export type Services = ReturnType<typeof createServices>;
