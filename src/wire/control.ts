/**
 * The control plane's answers (/_sandbox/*, docs: GET /_sandbox/openapi.json), and the bodies and
 * queries its services take: one definition of each, from which the routes declare them, the
 * services take their types, the test harness checks every answer and scripts/api-types.mjs
 * generates the control client's types.
 */
import { z } from 'zod';
import { parseClockOption } from '../clock.js';
import { ApiFaultView } from '../domain/api-faults.js';
import { ERROR_CODES } from '../domain/errors.js';
import { DELIVERY_STATUSES, WEBHOOK_TYPES } from '../domain/events.js';
import { Count, Uuid } from '../domain/formats.js';
import { ATTEMPT_FAULTS, FaultsView } from '../domain/webhook-faults.js';
import { Account } from './account.js';
import { Card } from './card.js';
import { Customer } from './customer.js';
import { Authorisation, Transaction } from './payment.js';
import { Webhook } from './webhook.js';

const Instant = z.string().meta({ format: 'date-time' });

/** The programme's sandbox clock. */
export const ClockState = z.object({ now: Instant, frozen: z.boolean() }).meta({ id: 'ClockState' });
export type ClockState = z.infer<typeof ClockState>;

/** POST /_sandbox/clock/advance: the new time and how many due jobs ran on the way. */
export const Advanced = z.object({ now: Instant, ran: Count }).meta({ id: 'Advanced' });

/** GET /_sandbox/health. */
export const Health = z
  .object({
    status: z.string(),
    version: z.string(),
    env: z.enum(['sandbox', 'production']),
    verify: z.enum(['strict', 'warn', 'off']),
    /** The programme's sandbox time. */
    clock: Instant,
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof Health>;

/** POST /_sandbox/reset: how many rows of each kind, and journal entries (`requests`), were wiped. */
export const Wiped = z.object({ wiped: z.record(z.string(), Count) }).meta({ id: 'Wiped' });

/** POST /_sandbox/programmes. */
export const NewProgramme = z
  .strictObject(
    {
      name: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
      /** Start the clock frozen at this instant (`now` or an ISO 8601 date-time); running otherwise. */
      clock: z.string({ error: 'must be "now" or an ISO 8601 date-time' }).optional(),
      /** Draw its ids and randomness from this seed, so that the same requests give the same answers. */
      randomSeed: z
        .number({ error: 'must be an integer' })
        .int('must be an integer')
        .min(0)
        .max(2 ** 32 - 1)
        .optional(),
      /** A snapshot's id: the programme starts from its world, clock and seed (docs/snapshots.md: Forks). */
      from: Uuid.optional(),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    if (body.from === undefined) return;
    for (const key of ['clock', 'randomSeed'] as const) {
      if (body[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'comes from the snapshot named by from: leave it out' });
    }
  });
export type NewProgramme = z.infer<typeof NewProgramme>;

export const ProgrammeSummary = z
  .object({ id: z.string(), name: z.string(), apiKeys: z.array(z.string()), clock: ClockState, createdAt: Instant })
  .meta({ id: 'ProgrammeSummary' });
export type ProgrammeSummary = z.infer<typeof ProgrammeSummary>;

/** A new programme: its credentials are answered once. */
export const CreatedProgramme = ProgrammeSummary.extend({ apiKey: z.string(), apiSecret: z.string() }).meta({ id: 'CreatedProgramme' });
export type CreatedProgramme = z.infer<typeof CreatedProgramme>;

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
    response: AttemptResponse.optional(),
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

/** An instant of sandbox time: an ISO 8601 date or date-time (UTC unless it has an offset). */
const SandboxInstant = z.string().transform((value, ctx) => {
  const at = value === 'now' ? undefined : parseClockOption(value, 0);
  if (at === undefined) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date or date-time, such as 2026-03-01T09:00:00Z' });
    return z.NEVER;
  }
  return at;
});

/** POST /_sandbox/events/resend: which events to send again — `since` inclusive, `until` exclusive (sandbox time, epoch ms once read). */
export const ResendWindow = z
  .strictObject({ since: SandboxInstant.optional(), until: SandboxInstant.optional(), type: z.enum(WEBHOOK_TYPES).optional() })
  .superRefine((window, ctx) => {
    if (window.since === undefined && window.until === undefined && window.type === undefined)
      ctx.addIssue({ code: 'custom', message: 'give since, until or type: which events to send again' });
    if (window.since !== undefined && window.until !== undefined && window.until <= window.since)
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be later than since' });
  });
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

export const WorldCard = z
  .intersection(Card, z.object({ authorisations: z.array(Authorisation), transactions: z.array(Transaction) }))
  .meta({ id: 'WorldCard' });
export type WorldCard = z.infer<typeof WorldCard>;

export const WorldAccount = z
  .intersection(
    Account,
    z.object({
      cards: z.array(WorldCard),
      /** Transactions that name no card (the API makes none today); omitted when there are none. */
      transactions: z.array(Transaction).optional(),
    }),
  )
  .meta({ id: 'WorldAccount' });
export type WorldAccount = z.infer<typeof WorldAccount>;

export const WorldCustomer = z.intersection(Customer, z.object({ accounts: z.array(WorldAccount) })).meta({ id: 'WorldCustomer' });
export type WorldCustomer = z.infer<typeof WorldCustomer>;

/** GET /_sandbox/world: oldest first at every level. */
export const World = z.object({ webhooks: z.array(Webhook), customers: z.array(WorldCustomer) }).meta({ id: 'World' });
export type World = z.infer<typeof World>;

/** GET /_sandbox/world/counts. */
export const WorldCounts = z
  .object({
    customers: Count,
    accounts: Count,
    cards: Count,
    authorisations: Count,
    transactions: Count,
    webhooks: Count,
    events: Count,
    /** Deliveries by state, each present even at 0. */
    deliveries: z.object(Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, Count])) as Record<(typeof DELIVERY_STATUSES)[number], typeof Count>),
  })
  .meta({ id: 'WorldCounts' });
export type WorldCounts = z.infer<typeof WorldCounts>;

const LabScope = z.enum(['programme', 'webhook']);
export type LabScope = z.infer<typeof LabScope>;

/** The faults in force and where they come from: the subscription's own, or the programme's. */
export const FaultsAnswer = z.object({ scope: LabScope, faults: FaultsView }).meta({ id: 'FaultsAnswer' });
export type FaultsAnswer = z.infer<typeof FaultsAnswer>;

export const PauseAnswer = z
  .object({
    scope: LabScope,
    webhookId: z.string().optional(),
    /** Whether its deliveries are held now (a subscription resumed stays held while the programme is paused). */
    paused: z.boolean(),
    /** How many pending deliveries this held back (pause) or let go (resume). */
    deliveries: Count,
  })
  .meta({ id: 'PauseAnswer' });
export type PauseAnswer = z.infer<typeof PauseAnswer>;

export const DeliveryAnswer = DeliverySummary.extend({ eventId: z.string() }).meta({ id: 'DeliveryAnswer' });
export type DeliveryAnswer = z.infer<typeof DeliveryAnswer>;

const Failure = z.object({ code: z.enum(ERROR_CODES), detail: z.string() });

/** One API request as the journal keeps it; details only when something went wrong. */
export const JournalEntry = z
  .object({
    requestId: z.string(),
    time: Instant,
    method: z.string(),
    path: z.string(),
    /** 0 for a connection the API fault lab closed without an answer. */
    status: z.number().int(),
    durationMs: z.number().min(0),
    warnings: z.array(z.string()),
    replayed: z.boolean(),
    /** The problem it was answered with. */
    problem: Failure.optional(),
    /** What request verification found when at least one check failed. */
    verification: z
      .object({
        /** `refused` in --verify strict (the first failure is the answer), `warned` in warn. */
        outcome: z.enum(['refused', 'warned']),
        /** Every failed check, in the order they run: digest, signature, idempotency key. */
        failures: z.array(Failure),
        /** The headers the checks read, as received (never Authorization). */
        headers: z.record(z.string(), z.string()),
        /** The RFC 9421 signature base the sandbox computed, when it could. */
        signatureBase: z.string().optional(),
      })
      .optional(),
    /** The fault the API fault lab put on it: which rule (from 1), or its own Sandbox-Fault header. */
    fault: ApiFaultView.extend({ source: z.union([z.number().int().min(1), z.literal('header')]) }).optional(),
    /** The Idempotency-Key it carried, if any. */
    idempotencyKey: z.string().optional(),
  })
  .meta({ id: 'JournalEntry' });
export type JournalEntry = z.infer<typeof JournalEntry>;
export type JournalProblem = z.infer<typeof Failure>;
export type VerificationFailure = JournalProblem;
export type Verification = NonNullable<JournalEntry['verification']>;
export type JournalFault = NonNullable<JournalEntry['fault']>;

const Created = z.object({ id: z.string(), status: z.string() });

/** POST /_sandbox/seed: what was created, in document order, with the states things ended in. */
export const SeedResult = z
  .object({
    webhooks: z.array(z.object({ id: z.string(), callbackUrl: z.string() })),
    customers: z.array(Created.extend({ externalId: z.string(), accounts: z.array(Created.extend({ cards: z.array(Created) })) })),
  })
  .meta({ id: 'SeedResult' });
export type SeedResult = z.infer<typeof SeedResult>;

/** POST /_sandbox/snapshots. */
export const NewSnapshot = z.strictObject(
  { name: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional() },
  { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) },
);

/** How many rows of each kind a snapshot holds, and entries of the request journal (`requests`). */
export const SnapshotCounts = z
  .object({
    attempts: Count,
    deliveries: Count,
    events: Count,
    jobs: Count,
    transactions: Count,
    authorisations: Count,
    cards: Count,
    accounts: Count,
    customers: Count,
    webhooks: Count,
    idempotencyKeys: Count,
    requests: Count,
  })
  .meta({ id: 'SnapshotCounts' });
export type SnapshotCounts = z.infer<typeof SnapshotCounts>;

/** A snapshot as the control plane shows it (docs/snapshots.md). */
export const SnapshotSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    /** When it was taken, on the wall clock. */
    createdAt: Instant,
    /** The programme's clock it holds. */
    clock: ClockState,
    counts: SnapshotCounts,
    /** The size of its file. */
    bytes: Count,
  })
  .meta({ id: 'SnapshotSummary' });
export type SnapshotSummary = z.infer<typeof SnapshotSummary>;

export { ApiFaultsView } from '../domain/api-faults.js';
export { Report } from '../domain/report.js';
export { FaultsView };
