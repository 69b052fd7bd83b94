/**
 * The database schema: every table the sandbox keeps. Everything but the programmes themselves
 * belongs to one programme (docs/programmes.md: Parallel test suites): `programme_id` leads every primary key
 * and every index, references within a programme name it too, and deleting a programme cascades
 * to all it owns. Times are integer milliseconds of sandbox time (UNIX epoch); JSON columns hold
 * plain data. drizzle-kit generates the migrations in `drizzle/` from this file
 * (`npm run db:generate`).
 */
import { foreignKey, index, integer, primaryKey, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { ACCOUNT_STATUSES, ACCOUNT_TYPES } from '../domain/account.js';
import type { Address } from '../domain/address.js';
import { AUTHORISATION_STATUSES, type Merchant } from '../domain/authorisation.js';
import { CARD_STATUSES, CARD_TYPES } from '../domain/card.js';
import { CUSTOMER_STATUSES } from '../domain/customer.js';
import { DELIVERY_STATUSES, WEBHOOK_TYPES, type WebhookType } from '../domain/outbox.js';
import { NETWORKS } from '../domain/pan.js';
import { TRANSACTION_DIRECTIONS, TRANSACTION_STATUSES, type ChainTransaction, type Fee } from '../domain/transaction.js';
import { ATTEMPT_FAULTS, DELIVERY_HOLDS, type Faults } from '../domain/webhook-faults.js';

const createdAt = () => integer('created_at').notNull();
const updatedAt = () => integer('updated_at').notNull();

/**
 * A programme: an isolated sandbox with its own credentials, keys, world and clock. What a
 * programme keeps outside its resources is here: the token secret and generation, the clock
 * (frozen at an instant, or an offset from the wall clock), the webhook signing key and, for
 * deterministic runs, the seed its ids and randomness are drawn from.
 */
export const programmes = sqliteTable('programmes', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Hex of the 32 random bytes that sign its access tokens (HS256). */
  tokenSecret: text('token_secret').notNull(),
  /** Bumped when credentials change: tokens carry it, and older ones are refused. */
  tokenGeneration: integer('token_generation').notNull().default(0),
  /** A frozen clock's instant; null for a clock that runs. */
  clockFrozenAt: integer('clock_frozen_at'),
  /** A running clock's offset from the wall clock. */
  clockOffset: integer('clock_offset').notNull().default(0),
  /** PKCS#8 PEM of the P-384 key that signs its webhooks. */
  webhookKey: text('webhook_key').notNull(),
  randomSeed: integer('random_seed'),
  /** Faults for all its subscriptions (docs/webhooks.md: Webhooks → The delivery lab); null for none. */
  webhookFaults: text('webhook_faults', { mode: 'json' }).$type<Faults>(),
  /** Whether all its deliveries are paused. */
  webhooksPaused: integer('webhooks_paused', { mode: 'boolean' }).notNull().default(false),
  createdAt: createdAt(),
});

/** The owning programme's id, first in every key; its rows go with it. */
const programmeId = () =>
  text('programme_id')
    .notNull()
    .references(() => programmes.id, { onDelete: 'cascade' });

/** A reference to a row of the same programme: (programme_id, id). */
const sameProgramme = (name: string, columns: [AnySQLiteColumn, AnySQLiteColumn], target: [AnySQLiteColumn, AnySQLiteColumn], cascade = false) =>
  foreignKey({ name, columns, foreignColumns: target }).onDelete(cascade ? 'cascade' : 'no action');

/** API keys are unique across programmes: POST /auth/token finds the programme by its key. */
export const credentials = sqliteTable(
  'credentials',
  {
    apiKey: text('api_key').primaryKey(),
    programmeId: programmeId(),
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('credentials_programme').on(t.programmeId)],
);

export const signingKeys = sqliteTable(
  'signing_keys',
  {
    programmeId: programmeId(),
    keyId: text('key_id').notNull(),
    /** SPKI PEM text of the integrator's P-384 public key. */
    publicKey: text('public_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.keyId] })],
);

export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    programmeId: programmeId(),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    state: text('state', { enum: ['in_flight', 'done'] }).notNull(),
    status: integer('status'),
    headers: text('headers', { mode: 'json' }).$type<Record<string, string>>(),
    body: text('body'),
    createdAt: createdAt(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.scope, t.key] })],
);

export const customers = sqliteTable(
  'customers',
  {
    programmeId: programmeId(),
    id: text('id').notNull(),
    externalId: text('external_id').notNull(),
    chainId: text('chain_id').notNull(),
    /** `chainId` lower-cased: addresses compare case-insensitively. */
    chainIdKey: text('chain_id_key').notNull(),
    status: text('status', { enum: CUSTOMER_STATUSES }).notNull(),
    challenge: text('challenge'),
    challengeExpiresAt: integer('challenge_expires_at'),
    challengeSigned: integer('challenge_signed', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.programmeId, t.id] }),
    uniqueIndex('customers_external_id').on(t.programmeId, t.externalId),
    uniqueIndex('customers_chain_id').on(t.programmeId, t.chainIdKey),
  ],
);

export const accounts = sqliteTable(
  'accounts',
  {
    programmeId: programmeId(),
    id: text('id').notNull(),
    customerId: text('customer_id').notNull(),
    type: text('type', { enum: ACCOUNT_TYPES }).notNull(),
    currencies: text('currencies', { mode: 'json' }).$type<string[]>().notNull(),
    status: text('status', { enum: ACCOUNT_STATUSES }).notNull(),
    chainId: text('chain_id'),
    challenge: text('challenge'),
    challengeExpiresAt: integer('challenge_expires_at'),
    /** Set when a customer cascade deactivated it, so that activation restores exactly that. */
    cascadeDeactivated: integer('cascade_deactivated', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.programmeId, t.id] }),
    sameProgramme('accounts_customer_fk', [t.programmeId, t.customerId], [customers.programmeId, customers.id]),
    index('accounts_customer').on(t.programmeId, t.customerId),
  ],
);

export const cards = sqliteTable(
  'cards',
  {
    programmeId: programmeId(),
    id: text('id').notNull(),
    accountId: text('account_id').notNull(),
    type: text('type', { enum: CARD_TYPES }).notNull(),
    status: text('status', { enum: CARD_STATUSES }).notNull(),
    name: text('name'),
    network: text('network', { enum: NETWORKS }),
    maskedPan: text('masked_pan'),
    expirationDate: text('expiration_date'),
    billingAddress: text('billing_address', { mode: 'json' }).$type<Address>().notNull(),
    shippingAddress: text('shipping_address', { mode: 'json' }).$type<Address>(),
    /** Set when an account or customer cascade deactivated it, so that activation restores exactly that. */
    cascadeDeactivated: integer('cascade_deactivated', { mode: 'boolean' }).notNull().default(false),
    terminatedAt: integer('terminated_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.programmeId, t.id] }),
    sameProgramme('cards_account_fk', [t.programmeId, t.accountId], [accounts.programmeId, accounts.id]),
    index('cards_account').on(t.programmeId, t.accountId),
  ],
);

export const authorisations = sqliteTable(
  'authorisations',
  {
    programmeId: programmeId(),
    id: text('id').notNull(),
    accountId: text('account_id').notNull(),
    cardId: text('card_id').notNull(),
    status: text('status', { enum: AUTHORISATION_STATUSES }).notNull(),
    amount: text('amount').notNull(),
    currency: text('currency').notNull(),
    merchantAmount: text('merchant_amount').notNull(),
    merchantCurrency: text('merchant_currency').notNull(),
    exchangeRate: text('exchange_rate').notNull(),
    merchant: text('merchant', { mode: 'json' }).$type<Merchant>().notNull(),
    capture: integer('capture', { mode: 'boolean' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.id] }), index('authorisations_card').on(t.programmeId, t.cardId)],
);

export const transactions = sqliteTable(
  'transactions',
  {
    programmeId: programmeId(),
    id: text('id').notNull(),
    accountId: text('account_id').notNull(),
    cardId: text('card_id'),
    authorisationId: text('authorisation_id'),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull(),
    direction: text('direction', { enum: TRANSACTION_DIRECTIONS }).notNull(),
    amount: text('amount').notNull(),
    currency: text('currency').notNull(),
    merchantAmount: text('merchant_amount').notNull(),
    merchantCurrency: text('merchant_currency').notNull(),
    exchangeRate: text('exchange_rate').notNull(),
    merchant: text('merchant', { mode: 'json' }).$type<Merchant>().notNull(),
    tokenAmount: text('token_amount').notNull(),
    token: text('token').notNull(),
    fees: text('fees', { mode: 'json' }).$type<Fee[]>().notNull(),
    chainTransactions: text('chain_transactions', { mode: 'json' }).$type<ChainTransaction[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.programmeId, t.id] }),
    index('transactions_account').on(t.programmeId, t.accountId),
    index('transactions_card').on(t.programmeId, t.cardId),
  ],
);

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
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.id] }), index('jobs_due').on(t.programmeId, t.dueAt), index('jobs_subject').on(t.programmeId, t.subjectId)],
);

/**
 * A programme's saved state (docs/snapshots.md): its portable file, and what a listing shows without
 * reading it. Ids are unique across programmes, as API keys are: a fork names the snapshot alone.
 */
export const snapshots = sqliteTable(
  'snapshots',
  {
    id: text('id').primaryKey(),
    programmeId: programmeId(),
    name: text('name').notNull(),
    /** The sandbox time it holds, and whether its clock was frozen there. */
    clockNow: integer('clock_now').notNull(),
    clockFrozen: integer('clock_frozen', { mode: 'boolean' }).notNull(),
    /** How many rows of each table it holds, and entries of the journal: a SnapshotCounts. */
    counts: text('counts', { mode: 'json' }).$type<Record<string, number>>().notNull(),
    /** The file, as GET /_sandbox/snapshots/{id}/file answers it, and its size in bytes. */
    file: text('file').notNull(),
    bytes: integer('bytes').notNull(),
    /** Wall-clock time. */
    createdAt: createdAt(),
  },
  (t) => [index('snapshots_programme').on(t.programmeId)],
);
