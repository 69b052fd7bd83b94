/**
 * The outbox on the control plane (docs/webhooks.md): events with their deliveries and attempts, the
 * queries that list and stream them, and what a resend takes and answers.
 */
import { z } from 'zod';
import { DELIVERY_STATUSES, WEBHOOK_TYPES } from '../domain/outbox.js';
import { notEmpty } from '../domain/field-rules.js';
import { Count, Uuid } from '../domain/formats.js';
import { ATTEMPT_FAULTS, FORGERIES } from '../domain/webhook-faults.js';
import { Instant, InstantInput } from './sandbox.js';

export const DeliverySummary = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    callbackUrl: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: Count,
    nextAttemptAt: Instant.optional(),
    /** Pending, and held until its subscription (or the programme) is resumed. */
    paused: z.literal(true).optional(),
  })
  .meta({ id: 'DeliverySummary' });
export type DeliverySummary = z.infer<typeof DeliverySummary>;

/** What the receiver answered: its Content-Type and the first 4 KiB of the body. */
export const AttemptResponse = z.object({ contentType: z.string().optional(), body: z.string().optional() }).meta({ id: 'AttemptResponse' });
export type AttemptResponse = z.infer<typeof AttemptResponse>;

export const AttemptView = z
  .object({
    attempt: z.number().int().min(1),
    at: Instant,
    statusCode: z.number().int().optional(),
    error: z.string().optional(),
    durationMs: z.number().min(0),
    /** The fault the delivery lab made of this attempt, if any. */
    fault: z.enum(ATTEMPT_FAULTS).optional(),
    /** A forged attempt's kind (docs/webhooks.md: Forged deliveries). */
    forgery: z.enum(FORGERIES).optional(),
    response: AttemptResponse.optional(),
    /** How many times the receiver said, in its Sandbox-Processed header, it has acted on the event (docs/go-live.md: Telling the sandbox what your receiver did). */
    processed: Count.optional(),
  })
  .meta({ id: 'AttemptView' });
export type AttemptView = z.infer<typeof AttemptView>;

const eventFields = {
  id: z.string(),
  type: z.enum(WEBHOOK_TYPES),
  entityId: z.string(),
  createdAt: Instant,
  /** The webhook body, exactly as sent. */
  body: z.unknown(),
};

export const EventSummary = z.object({ ...eventFields, deliveries: z.array(DeliverySummary) }).meta({ id: 'EventSummary' });
export type EventSummary = z.infer<typeof EventSummary>;

export const EventDetail = z
  .object({ ...eventFields, deliveries: z.array(DeliverySummary.extend({ history: z.array(AttemptView) })) })
  .meta({ id: 'EventDetail' });
export type EventDetail = z.infer<typeof EventDetail>;

const QueuedDelivery = z.object({ id: z.string(), webhookId: z.string(), callbackUrl: z.string() });

/** POST /_sandbox/events/{eventId}/resend. */
export const EventResent = z.object({ eventId: z.string(), deliveries: z.array(QueuedDelivery) }).meta({ id: 'EventResent' });

/** POST /_sandbox/events/resend: how many events matched, and the deliveries queued, oldest event first. */
export const WindowResent = z.object({ events: Count, deliveries: z.array(QueuedDelivery.extend({ eventId: z.string() })) }).meta({ id: 'WindowResent' });
export type WindowResent = z.infer<typeof WindowResent>;

/** GET /_sandbox/events/stream: which events and attempts to send. */
export const EventStreamQuery = z.object({
  type: z.enum(WEBHOOK_TYPES, `must be one of ${WEBHOOK_TYPES.join(', ')}`).optional(),
  entityId: Uuid.optional(),
});

const MAX_EVENTS_PAGE = 1000;

/** GET /_sandbox/events: a page of events, newest first. */
export const EventListQuery = EventStreamQuery.extend({
  /** Only events older than this one (the last id of the previous page). */
  before: Uuid.optional(),
  limit: z.coerce
    .number(`must be an integer from 1 to ${MAX_EVENTS_PAGE}`)
    .int(`must be an integer from 1 to ${MAX_EVENTS_PAGE}`)
    .min(1, `must be an integer from 1 to ${MAX_EVENTS_PAGE}`)
    .max(MAX_EVENTS_PAGE, `must be an integer from 1 to ${MAX_EVENTS_PAGE}`)
    .default(100),
});
/** The query as validated: `limit` defaulted. */
export type EventListQuery = z.output<typeof EventListQuery>;

/** POST /_sandbox/events/resend: which events to send again — `since` inclusive, `until` exclusive (sandbox time, epoch ms once read). */
export const ResendWindow = z
  .strictObject({ since: InstantInput.optional(), until: InstantInput.optional(), type: z.enum(WEBHOOK_TYPES).optional() })
  .superRefine((window, ctx) => {
    if (window.since === undefined && window.until === undefined && window.type === undefined)
      ctx.addIssue({ code: 'custom', message: 'give since, until or type: which events to send again' });
    if (window.since !== undefined && window.until !== undefined && window.until <= window.since)
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be later than since' });
  })
  .meta(notEmpty());
export type ResendWindow = z.output<typeof ResendWindow>;

/** `event: event` on GET /_sandbox/events/stream: a committed event. */
export const StreamedEvent = z.object({ kind: z.literal('event'), ...eventFields }).meta({ id: 'StreamedEvent' });
export type StreamedEvent = z.infer<typeof StreamedEvent>;

/** `event: attempt` on GET /_sandbox/events/stream: a delivery attempt's outcome. */
export const StreamedAttempt = AttemptView.extend({
  kind: z.literal('attempt'),
  eventId: z.string(),
  type: z.enum(WEBHOOK_TYPES),
  entityId: z.string(),
  deliveryId: z.string(),
  webhookId: z.string(),
  callbackUrl: z.string(),
  /** The delivery's state after the attempt. */
  status: z.enum(DELIVERY_STATUSES),
  /** When the next attempt is due (status `pending` only). */
  nextAttemptAt: Instant.optional(),
  /** The next attempt waits for a resume. */
  paused: z.literal(true).optional(),
}).meta({ id: 'StreamedAttempt' });
export type StreamedAttempt = z.infer<typeof StreamedAttempt>;
