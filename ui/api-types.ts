/**
 * The control plane's answers as the inspector reads them: the server's own definitions, imported
 * as types only (nothing of the server is bundled) (docs/inspector.md: The inspector).
 */
import type { AttemptView, DeliverySummary, EventDetail, EventSummary } from '../src/services/sandbox-events.js';

export type { JournalEntry, Verification } from '../src/journal.js';
export type { ProgrammeSummary } from '../src/programmes.js';
export type { World, WorldAccount, WorldCard, WorldCounts, WorldCustomer } from '../src/services/world.js';
export type { Problem } from '../src/wire/problem.js';
export type { Webhook } from '../src/wire/webhook.js';
export type { Authorisation, Transaction } from '../src/wire/payment.js';
export type { AuthorisationRequest } from '../src/services/authorisations.js';

/** GET /_sandbox/health. */
export type { Health } from '../src/http/routes/control.js';

/** GET /_sandbox/clock. */
export interface Clock {
  now: string;
  frozen: boolean;
}

export type Attempt = AttemptView;
export type Delivery = DeliverySummary;
export type Event = EventSummary;
export type EventWithAttempts = EventDetail;

/** `event: event` on GET /_sandbox/events/stream. */
export type { StreamedEvent as EventMessage } from '../src/http/routes/control-events.js';

/** `event: attempt` on GET /_sandbox/events/stream. */
export type { StreamedAttempt as AttemptMessage } from '../src/http/routes/control-events.js';
