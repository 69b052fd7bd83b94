/**
 * The snapshot file's tables and their fields (format.ts says what a field is): for each table of a
 * programme's world, in the order rows go back in (parents first), each field's name in the file,
 * its kind and the column that keeps it — and the columns made from a record rather than written.
 * A column added to the database gets its field here, with a migration from the version before
 * (migrations.ts); a field's name is the format's own, whatever its column is called.
 */
import { z } from 'zod';
import { Address } from '../domain/address.js';
import { Text } from '../domain/formats.js';
import { Fingerprint, KEPT_STATUS, KeptHeaders, keptRecordProblem, type KeptRecord } from '../domain/idempotency.js';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { ExpirationDate } from '../domain/pan.js';
import { StoredFaults } from '../domain/stored-faults.js';
import * as schema from '../store/schema.js';
import { NewAccount } from '../wire/account.js';
import { ChainTransaction, Fee, Merchant } from '../wire/payment.js';
import { BlockchainAccountId, BlockchainAssetId, Currency, Decimal } from '../wire/scalars.js';
import { bool, decimal, enumOf, instant, int, json, table, text, textOf, uuid, type FormatTable } from './format.js';

const { customers, accounts, cards, authorisations, transactions, webhooks, events, deliveries, attempts, jobs, idempotencyKeys } = schema;
const count = int(0);
// Each text the API reads back is checked by the rule the API itself applies to it (docs/snapshots.md: The file).
const id = uuid;
const amount = textOf(Decimal);
const currency = textOf(Currency);
const status = int(100, 599);
/**
 * The trace an event's deliveries and a job's run continue is not part of the world: a snapshot
 * does not keep it, and what a restore writes starts traces of its own (docs/tracing.md: Snapshots).
 */
const untraced = { traceParent: () => null };

/** The tables in the order rows go back in: parents first. */
export const FORMAT_TABLES: FormatTable[] = [
  table(
    'idempotencyKeys',
    {
      scope: textOf(Text)(idempotencyKeys.scope),
      key: id(idempotencyKeys.key),
      fingerprint: textOf(Fingerprint)(idempotencyKeys.fingerprint),
      state: enumOf(idempotencyKeys.state),
      status: int(KEPT_STATUS.min, KEPT_STATUS.max)(idempotencyKeys.status),
      headers: json(KeptHeaders)(idempotencyKeys.headers),
      body: text(idempotencyKeys.body),
      createdAt: instant(idempotencyKeys.createdAt),
      expiresAt: instant(idempotencyKeys.expiresAt),
    },
    {},
    (record) => keptRecordProblem(record as unknown as KeptRecord),
  ),
  table('webhooks', {
    id: id(webhooks.id),
    callbackUrl: text(webhooks.callbackUrl),
    types: json(z.array(z.enum(WEBHOOK_TYPES)))(webhooks.types),
    faults: json(StoredFaults)(webhooks.faults),
    paused: bool(webhooks.paused),
    createdAt: instant(webhooks.createdAt),
    updatedAt: instant(webhooks.updatedAt),
  }),
  table(
    'customers',
    {
      id: id(customers.id),
      externalId: textOf(Text)(customers.externalId),
      chainId: textOf(BlockchainAccountId)(customers.chainId),
      status: enumOf(customers.status),
      challenge: text(customers.challenge),
      challengeExpiresAt: instant(customers.challengeExpiresAt),
      challengeSigned: bool(customers.challengeSigned),
      createdAt: instant(customers.createdAt),
      updatedAt: instant(customers.updatedAt),
    },
    // Addresses compare case-insensitively: the key is the chain id lower-cased (services/customers.ts).
    { chainIdKey: (record) => String(record.chainId).toLowerCase() },
  ),
  table('accounts', {
    id: id(accounts.id),
    customerId: id(accounts.customerId),
    type: enumOf(accounts.type),
    currencies: json(NewAccount.shape.currencies)(accounts.currencies),
    status: enumOf(accounts.status),
    chainId: textOf(BlockchainAccountId)(accounts.chainId),
    challenge: text(accounts.challenge),
    challengeExpiresAt: instant(accounts.challengeExpiresAt),
    cascadeDeactivated: bool(accounts.cascadeDeactivated),
    balance: decimal(accounts.balance),
    createdAt: instant(accounts.createdAt),
    updatedAt: instant(accounts.updatedAt),
  }),
  table('cards', {
    id: id(cards.id),
    accountId: id(cards.accountId),
    type: enumOf(cards.type),
    status: enumOf(cards.status),
    name: text(cards.name),
    network: enumOf(cards.network),
    maskedPan: text(cards.maskedPan),
    expirationDate: textOf(ExpirationDate)(cards.expirationDate),
    billingAddress: json(Address)(cards.billingAddress),
    shippingAddress: json(Address)(cards.shippingAddress),
    cascadeDeactivated: bool(cards.cascadeDeactivated),
    terminatedAt: instant(cards.terminatedAt),
    createdAt: instant(cards.createdAt),
    updatedAt: instant(cards.updatedAt),
  }),
  table('authorisations', {
    id: id(authorisations.id),
    accountId: id(authorisations.accountId),
    cardId: id(authorisations.cardId),
    status: enumOf(authorisations.status),
    amount: amount(authorisations.amount),
    currency: currency(authorisations.currency),
    merchantAmount: amount(authorisations.merchantAmount),
    merchantCurrency: currency(authorisations.merchantCurrency),
    exchangeRate: amount(authorisations.exchangeRate),
    merchant: json(Merchant)(authorisations.merchant),
    capture: bool(authorisations.capture),
    capturedAmount: amount(authorisations.capturedAmount),
    createdAt: instant(authorisations.createdAt),
    updatedAt: instant(authorisations.updatedAt),
  }),
  table('transactions', {
    id: id(transactions.id),
    accountId: id(transactions.accountId),
    cardId: id(transactions.cardId),
    authorisationId: id(transactions.authorisationId),
    status: enumOf(transactions.status),
    direction: enumOf(transactions.direction),
    amount: amount(transactions.amount),
    currency: currency(transactions.currency),
    merchantAmount: amount(transactions.merchantAmount),
    merchantCurrency: currency(transactions.merchantCurrency),
    exchangeRate: amount(transactions.exchangeRate),
    merchant: json(Merchant)(transactions.merchant),
    tokenAmount: amount(transactions.tokenAmount),
    token: textOf(BlockchainAssetId)(transactions.token),
    fees: json(z.array(Fee))(transactions.fees),
    chainTransactions: json(z.array(ChainTransaction))(transactions.chainTransactions),
    createdAt: instant(transactions.createdAt),
    updatedAt: instant(transactions.updatedAt),
  }),
  table(
    'jobs',
    {
      id: id(jobs.id),
      kind: text(jobs.kind),
      subjectId: id(jobs.subjectId),
      dueAt: instant(jobs.dueAt),
      createdAt: instant(jobs.createdAt),
    },
    untraced,
  ),
  table(
    'events',
    {
      id: id(events.id),
      seq: int(1)(events.seq),
      type: enumOf(events.type),
      entityId: id(events.entityId),
      // The bytes every delivery sends and signs, kept as the text they are (checks.ts reads them).
      body: text(events.body),
      createdAt: instant(events.createdAt),
    },
    untraced,
  ),
  table('deliveries', {
    id: id(deliveries.id),
    eventId: id(deliveries.eventId),
    webhookId: id(deliveries.webhookId),
    callbackUrl: text(deliveries.callbackUrl),
    status: enumOf(deliveries.status),
    attempts: count(deliveries.attempts),
    firstAttemptAt: instant(deliveries.firstAttemptAt),
    nextAttemptAt: instant(deliveries.nextAttemptAt),
    pausedDueAt: instant(deliveries.pausedDueAt),
    hold: enumOf(deliveries.hold),
    createdAt: instant(deliveries.createdAt),
    updatedAt: instant(deliveries.updatedAt),
  }),
  table('attempts', {
    id: id(attempts.id),
    deliveryId: id(attempts.deliveryId),
    attempt: int(1)(attempts.attempt),
    at: instant(attempts.at),
    statusCode: status(attempts.statusCode),
    error: text(attempts.error),
    durationMs: int(0, 86_400_000)(attempts.durationMs),
    fault: enumOf(attempts.fault),
    forgery: enumOf(attempts.forgery),
    processed: count(attempts.processed),
    responseType: text(attempts.responseType),
    responseBody: text(attempts.responseBody),
  }),
];
