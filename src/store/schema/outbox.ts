/** The outbox and the work that falls due: events, subscriptions, deliveries, attempts and jobs. */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { DELIVERY_STATUSES, WEBHOOK_TYPES, type WebhookType } from '../../domain/outbox.js';
import { ATTEMPT_FAULTS, DELIVERY_HOLDS, FORGERIES, type Faults } from '../../domain/webhook-faults.js';
import { createdAt, programmeId, sameProgramme, updatedAt } from './programmes.js';

/** The outbox: one row per change of an entity, its webhook body serialised once. */
export const events = sqliteTable(
  'events',
  {
    programmeId: programmeId(),
    id: text('id').notNull(),
    /** 1, 2, 3… in the order the programme's events were written: its newest are the highest. */
    seq: integer('seq').notNull(),
    type: text('type', { enum: WEBHOOK_TYPES }).notNull(),
    entityId: text('entity_id').notNull(),
    body: text('body').notNull(),
    /** The W3C traceparent of the span that wrote it, which its deliveries' attempts continue (docs/tracing.md: Tracing); null untraced. */
    traceParent: text('trace_parent'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.programmeId, t.id] }),
    uniqueIndex('events_seq').on(t.programmeId, t.seq),
    index('events_entity').on(t.programmeId, t.entityId),
    index('events_type').on(t.programmeId, t.type),
  ],
);

export const webhooks = sqliteTable(
  'webhooks',
  {
    programmeId: programmeId(),
    id: text('id').notNull(),
    callbackUrl: text('callback_url').notNull(),
    types: text('types', { mode: 'json' }).$type<WebhookType[]>().notNull(),
    /** Its own faults, in place of the programme's; null to follow the programme's. */
    faults: text('faults', { mode: 'json' }).$type<Faults>(),
    /** Whether its deliveries are paused. */
    paused: integer('paused', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.id] })],
);

/** One per (event, subscription matching at event time). */
export const deliveries = sqliteTable(
  'deliveries',
  {
    programmeId: programmeId(),
    id: text('id').notNull(),
    eventId: text('event_id').notNull(),
    webhookId: text('webhook_id').notNull(),
    callbackUrl: text('callback_url').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    firstAttemptAt: integer('first_attempt_at'),
    /** Null while paused (or once finished). */
    nextAttemptAt: integer('next_attempt_at'),
    /** While paused: when the next attempt was due, restored on resume. */
    pausedDueAt: integer('paused_due_at'),
    /** Why the next attempt was held back, recorded on it as its fault. */
    hold: text('hold', { enum: DELIVERY_HOLDS }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.programmeId, t.id] }),
    sameProgramme('deliveries_event_fk', [t.programmeId, t.eventId], [events.programmeId, events.id], true),
    index('deliveries_event').on(t.programmeId, t.eventId),
    // The dispatcher's "what is due next" query walks this index in order.
    index('deliveries_due').on(t.programmeId, t.status, t.nextAttemptAt),
  ],
);

export const attempts = sqliteTable(
  'attempts',
  {
    programmeId: programmeId(),
    id: text('id').notNull(),
    deliveryId: text('delivery_id').notNull(),
    attempt: integer('attempt').notNull(),
    at: integer('at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    fault: text('fault', { enum: ATTEMPT_FAULTS }),
    /** A forged attempt's kind (docs/webhooks.md: Forged deliveries). */
    forgery: text('forgery', { enum: FORGERIES }),
    /** How many times the receiver said it had acted on the event, in its answer's Sandbox-Processed header (docs/go-live.md: Telling the sandbox what your receiver did). */
    processed: integer('processed'),
    /** The receiver's Content-Type and the first 4 KiB of its answer's body. */
    responseType: text('response_type'),
    responseBody: text('response_body'),
  },
  (t) => [
    primaryKey({ columns: [t.programmeId, t.id] }),
    sameProgramme('attempts_delivery_fk', [t.programmeId, t.deliveryId], [deliveries.programmeId, deliveries.id], true),
    index('attempts_delivery').on(t.programmeId, t.deliveryId),
  ],
);

/** Work that falls due at a sandbox time: deployments, captures, settlements, expiries. */
export const jobs = sqliteTable(
  'jobs',
  {
    programmeId: programmeId(),
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    subjectId: text('subject_id').notNull(),
    dueAt: integer('due_at').notNull(),
    /** The W3C traceparent of the span that scheduled it, whose trace its run continues (docs/tracing.md: Tracing); null untraced. */
    traceParent: text('trace_parent'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.id] }), index('jobs_due').on(t.programmeId, t.dueAt), index('jobs_subject').on(t.programmeId, t.subjectId)],
);
