/** What an attempt is made from, what it records and what its listeners are told (delivery-rows.ts, dispatcher.ts). */
import type { DeliveryStatus, WebhookType } from '../domain/outbox.js';
import type { AttemptFault, DeliveryHold, Forgery } from '../domain/webhook-faults.js';
import type { AttemptOutcome, AttemptResponse } from './send.js';

export interface AttemptReport {
  eventId: string;
  /** The event's type and entity, so that a listener needs no look-up. */
  type: WebhookType;
  entityId: string;
  deliveryId: string;
  webhookId: string;
  callbackUrl: string;
  attempt: number;
  /** Sandbox time the attempt started, epoch ms. */
  at: number;
  statusCode?: number;
  error?: string;
  durationMs: number;
  fault?: AttemptFault;
  /** A forged attempt's kind. */
  forgery?: Forgery;
  response?: AttemptResponse;
  /** How many times the receiver said it has acted on the event (Sandbox-Processed). */
  processed?: number;
  /** The delivery's state after the attempt. */
  status: DeliveryStatus;
  /** When the next attempt is due (status `pending` only). */
  nextAttemptAt?: number;
  /** The next attempt waits for a resume. */
  paused?: true;
}

export type AttemptListener = (report: AttemptReport) => void;

/** A due delivery, with what its attempt needs of its event. */
export interface Due {
  id: string;
  eventId: string;
  webhookId: string;
  callbackUrl: string;
  attempts: number;
  nextAttemptAt: number | null;
  hold: DeliveryHold | null;
  body: string;
  type: string;
  entityId: string;
  seq: number;
  /** The trace its attempts continue: the event's (docs/tracing.md: Tracing). */
  traceParent: string | null;
  /** The body's bytes once sent: the retries time travel follows send these again (and their Content-Digest, send.ts). */
  bytes?: Buffer;
}

/** An attempt's outcome as recorded: what the receiver did, or the fault that stood in for it. */
export type Outcome = AttemptOutcome & { fault?: AttemptFault; forgery?: Forgery };

export const isSuccess = (outcome: AttemptOutcome) =>
  outcome.error === undefined && outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode < 300;

/** An attempt to record: its delivery as it was due, when it was made, and its outcomes (a duplicate's after the first). */
export interface Recorded {
  due: Due;
  at: number;
  outcomes: Outcome[];
}

/** What recording a batch of attempts left: how many were stored, and its deliveries as written that stay pending with a next attempt. */
export interface Written {
  stored: number;
  pending: Due[];
}
