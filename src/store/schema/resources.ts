/** A programme's resources: customers, accounts, cards, authorisations and transactions. */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { ACCOUNT_STATUSES, ACCOUNT_TYPES } from '../../domain/account.js';
import type { Address } from '../../domain/address.js';
import { AUTHORISATION_STATUSES, type Merchant } from '../../domain/authorisation.js';
import { CARD_STATUSES, CARD_TYPES } from '../../domain/card.js';
import { CUSTOMER_STATUSES } from '../../domain/customer.js';
import { DEFAULT_STARTING_BALANCE } from '../../domain/funds.js';
import { NETWORKS } from '../../domain/pan.js';
import { TRANSACTION_DIRECTIONS, TRANSACTION_STATUSES, type ChainTransaction, type Fee } from '../../domain/transaction.js';
import { createdAt, programmeId, sameProgramme, updatedAt } from './programmes.js';

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
    /** Its smart account's balance in its currency, a decimal string (docs/money-path.md: Funds): what payments take and credits bring. */
    balance: text('balance').notNull().default(DEFAULT_STARTING_BALANCE),
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
    /** The part a partial capture takes, in `currency`; null for the whole (docs/money-path.md: Partial captures). Last, so a snapshot file written before it reads with it empty. */
    capturedAmount: text('captured_amount'),
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
