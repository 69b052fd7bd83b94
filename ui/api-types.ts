/**
 * The control plane's answers as the inspector names them: the types generated from
 * GET /_sandbox/openapi.json (docs/inspector.md: The inspector), types only.
 */
import type {
  AttemptView,
  ClockState,
  DeliverySummary,
  EventDetail,
  EventSummary,
  JournalEntry,
  Operations,
  StreamedAttempt,
  StreamedEvent,
} from '../src/client/control.generated.js';

export type {
  Authorisation,
  Fees,
  Funds,
  Rates,
  Health,
  JournalEntry,
  ProgrammeSummary,
  Problem,
  Report,
  Transaction,
  Webhook,
  World,
  WorldAccount,
  WorldCard,
  WorldCounts,
  WorldCustomer,
} from '../src/client/control.generated.js';

export type Clock = ClockState;
export type Attempt = AttemptView;
export type Delivery = DeliverySummary;
export type Event = EventSummary;
export type EventWithAttempts = EventDetail;
export type Verification = NonNullable<JournalEntry['verification']>;
/** The body of POST /_sandbox/simulator/cards/{cardId}/authorisation. */
export type AuthorisationRequest = Operations['simulateCardAuthorisation']['args'][1];
/** The body of POST /_sandbox/simulator/cards/{cardId}/transactions (a force post). */
export type ForcePostRequest = Operations['forcePostTransaction']['args'][1];
/** The body of POST /_sandbox/simulator/cards/{cardId}/refund. */
export type RefundRequest = Operations['refundCard']['args'][1];
/** `event: event` on GET /_sandbox/events/stream. */
export type EventMessage = StreamedEvent;
/** `event: attempt` on GET /_sandbox/events/stream. */
export type AttemptMessage = StreamedAttempt;
