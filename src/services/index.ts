/**
 * The use cases, wired together once per sandbox. Each service takes the core dependencies and
 * the services it builds on; nothing here listens on a port.
 */
import type { Core } from '../deps.js';
import { createAuth } from './auth.js';
import { createEngine } from './engine.js';
import { createEvents } from './events.js';
import { createIdempotency } from './idempotency.js';
import { createJobs } from './jobs.js';
import { createScheduler } from './scheduler.js';

export function createServices(core: Core) {
  const scheduler = createScheduler(core.clock, core.log);
  const jobs = createJobs(core, () => scheduler.kick());
  scheduler.add(jobs.source);
  const events = createEvents(core);
  const auth = createAuth(core);
  auth.init();
  const engine = createEngine(core.config.env);
  const idempotency = createIdempotency(core);
  return { scheduler, jobs, events, auth, engine, idempotency };
}

export type Services = ReturnType<typeof createServices>;
