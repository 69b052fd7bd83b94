/**
 * The database schema: every table the sandbox keeps. Times are integer milliseconds of sandbox
 * time (UNIX epoch); JSON columns hold plain data. drizzle-kit generates the migrations in
 * `drizzle/` from this file (`npm run db:generate`).
 */
import { sqliteTable, text, integer, primaryKey, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { ACCOUNT_STATUSES, ACCOUNT_TYPES } from '../domain/account.js';
import type { Address } from '../domain/address.js';
import { AUTHORISATION_STATUSES, type Merchant } from '../domain/authorisation.js';
import { CARD_STATUSES, CARD_TYPES } from '../domain/card.js';
import { CUSTOMER_STATUSES } from '../domain/customer.js';
import { WEBHOOK_TYPES, type WebhookType } from '../domain/events.js';
import { NETWORKS } from '../domain/pan.js';
import { TRANSACTION_DIRECTIONS, TRANSACTION_STATUSES, type ChainTransaction, type Fee } from '../domain/transaction.js';

const createdAt = () => integer('created_at').notNull();
const updatedAt = () => integer('updated_at').notNull();

/** Key/value settings that belong to one database: JWT secret, token generation, clock offset, webhook key. */
export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const credentials = sqliteTable('credentials', {
  apiKey: text('api_key').primaryKey(),
  secretHash: text('secret_hash').notNull(),
  createdAt: createdAt(),
});

export const signingKeys = sqliteTable('signing_keys', {
  keyId: text('key_id').primaryKey(),
  /** SPKI PEM text of the integrator's P-384 public key. */
  publicKey: text('public_key').notNull(),
  createdAt: createdAt(),
});

export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
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
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

export const customers = sqliteTable(
  'customers',
  {
    id: text('id').primaryKey(),
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
  (t) => [uniqueIndex('customers_external_id').on(t.externalId), uniqueIndex('customers_chain_id').on(t.chainIdKey)],
);

export const accounts = sqliteTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.id),
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
  (t) => [index('accounts_customer').on(t.customerId)],
);

export const cards = sqliteTable(
  'cards',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
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
  (t) => [index('cards_account').on(t.accountId)],
);

export const authorisations = sqliteTable(
  'authorisations',
  {
    id: text('id').primaryKey(),
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
  (t) => [index('authorisations_card').on(t.cardId)],
);

export const transactions = sqliteTable(
  'transactions',
  {
    id: text('id').primaryKey(),
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
  (t) => [index('transactions_account').on(t.accountId), index('transactions_card').on(t.cardId)],
);

/** The outbox: one row per change of an entity, its webhook body serialised once. */
export const events = sqliteTable(
  'events',
  {
    id: text('id').primaryKey(),
    type: text('type', { enum: WEBHOOK_TYPES }).notNull(),
    entityId: text('entity_id').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('events_entity').on(t.entityId), index('events_type').on(t.type)],
);

export const webhooks = sqliteTable('webhooks', {
  id: text('id').primaryKey(),
  callbackUrl: text('callback_url').notNull(),
  types: text('types', { mode: 'json' }).$type<WebhookType[]>().notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** One per (event, subscription matching at event time). */
export const deliveries = sqliteTable(
  'deliveries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id').notNull(),
    callbackUrl: text('callback_url').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'discarded'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    firstAttemptAt: integer('first_attempt_at'),
    nextAttemptAt: integer('next_attempt_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // (status, next_attempt_at): the dispatcher's "what is due next" query walks this index in order.
  (t) => [index('deliveries_event').on(t.eventId), index('deliveries_due').on(t.status, t.nextAttemptAt)],
);

export const attempts = sqliteTable(
  'attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: integer('at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('attempts_delivery').on(t.deliveryId)],
);

/** Work that falls due at a sandbox time: deployments, captures, settlements, expiries, retries. */
export const jobs = sqliteTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    subjectId: text('subject_id').notNull(),
    dueAt: integer('due_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('jobs_due').on(t.dueAt), index('jobs_subject').on(t.subjectId)],
);
