/**
 * The snapshot file's tables and their fields (format.ts says what a field is): for each table of a
 * programme's world, in the order rows go back in (parents first), each field's name in the file,
 * its kind and the column that keeps it — and the columns made from a record rather than written.
 * A column added to the database gets its field here, with a migration from the version before
 * (migrations.ts); a field's name is the format's own, whatever its column is called.
 */
import { z } from 'zod';
import { Address } from '../domain/address.js';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { StoredFaults } from '../domain/stored-faults.js';
import * as schema from '../store/schema.js';
import { ChainTransaction, Fee, Merchant } from '../wire/payment.js';
import { bool, decimal, enumOf, instant, int, json, table, text, type FormatTable } from './format.js';

const { customers, accounts, cards, authorisations, transactions, webhooks, events, deliveries, attempts, jobs, idempotencyKeys } = schema;
const count = int(0);
const status = int(100, 599);
/**
 * The trace an event's deliveries and a job's run continue is not part of the world: a snapshot
 * does not keep it, and what a restore writes starts traces of its own (docs/tracing.md: Snapshots).
 */
const untraced = { traceParent: () => null };

/** The tables in the order rows go back in: parents first. */
export const FORMAT_TABLES: FormatTable[] = [
  table('idempotencyKeys', {
    scope: text(idempotencyKeys.scope),
    key: text(idempotencyKeys.key),
    fingerprint: text(idempotencyKeys.fingerprint),
    state: enumOf(idempotencyKeys.state),
    status: status(idempotencyKeys.status),
    headers: json(z.record(z.string(), z.string()))(idempotencyKeys.headers),
    body: text(idempotencyKeys.body),
    createdAt: instant(idempotencyKeys.createdAt),
    expiresAt: instant(idempotencyKeys.expiresAt),
  }),
  table('webhooks', {
    id: text(webhooks.id),
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
      id: text(customers.id),
      externalId: text(customers.externalId),
      chainId: text(customers.chainId),
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
    id: text(accounts.id),
    customerId: text(accounts.customerId),
    type: enumOf(accounts.type),
    currencies: json(z.array(z.string()))(accounts.currencies),
    status: enumOf(accounts.status),
    chainId: text(accounts.chainId),
    challenge: text(accounts.challenge),
    challengeExpiresAt: instant(accounts.challengeExpiresAt),
    cascadeDeactivated: bool(accounts.cascadeDeactivated),
    balance: decimal(accounts.balance),
    createdAt: instant(accounts.createdAt),
    updatedAt: instant(accounts.updatedAt),
  }),
  table('cards', {
    id: text(cards.id),
    accountId: text(cards.accountId),
    type: enumOf(cards.type),
    status: enumOf(cards.status),
    name: text(cards.name),
    network: enumOf(cards.network),
    maskedPan: text(cards.maskedPan),
    expirationDate: text(cards.expirationDate),
    billingAddress: json(Address)(cards.billingAddress),
    shippingAddress: json(Address)(cards.shippingAddress),
    cascadeDeactivated: bool(cards.cascadeDeactivated),
    terminatedAt: instant(cards.terminatedAt),
    createdAt: instant(cards.createdAt),
    updatedAt: instant(cards.updatedAt),
  }),
  table('authorisations', {
    id: text(authorisations.id),
    accountId: text(authorisations.accountId),
    cardId: text(authorisations.cardId),
    status: enumOf(authorisations.status),
    amount: text(authorisations.amount),
    currency: text(authorisations.currency),
    merchantAmount: text(authorisations.merchantAmount),
    merchantCurrency: text(authorisations.merchantCurrency),
    exchangeRate: text(authorisations.exchangeRate),
    merchant: json(Merchant)(authorisations.merchant),
    capture: bool(authorisations.capture),
    capturedAmount: text(authorisations.capturedAmount),
    createdAt: instant(authorisations.createdAt),
    updatedAt: instant(authorisations.updatedAt),
  }),
  table('transactions', {
    id: text(transactions.id),
    accountId: text(transactions.accountId),
    cardId: text(transactions.cardId),
    authorisationId: text(transactions.authorisationId),
    status: enumOf(transactions.status),
    direction: enumOf(transactions.direction),
    amount: text(transactions.amount),
    currency: text(transactions.currency),
    merchantAmount: text(transactions.merchantAmount),
    merchantCurrency: text(transactions.merchantCurrency),
    exchangeRate: text(transactions.exchangeRate),
    merchant: json(Merchant)(transactions.merchant),
    tokenAmount: text(transactions.tokenAmount),
    token: text(transactions.token),
    fees: json(z.array(Fee))(transactions.fees),
    chainTransactions: json(z.array(ChainTransaction))(transactions.chainTransactions),
    createdAt: instant(transactions.createdAt),
    updatedAt: instant(transactions.updatedAt),
  }),
  table(
    'jobs',
    {
      id: text(jobs.id),
      kind: text(jobs.kind),
      subjectId: text(jobs.subjectId),
      dueAt: instant(jobs.dueAt),
      createdAt: instant(jobs.createdAt),
    },
    untraced,
  ),
  table(
    'events',
    {
      id: text(events.id),
      seq: int(1)(events.seq),
      type: enumOf(events.type),
      entityId: text(events.entityId),
      // The bytes every delivery sends and signs, kept as the text they are (checks.ts reads them).
      body: text(events.body),
      createdAt: instant(events.createdAt),
    },
    untraced,
  ),
  table('deliveries', {
    id: text(deliveries.id),
    eventId: text(deliveries.eventId),
    webhookId: text(deliveries.webhookId),
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
    id: text(attempts.id),
    deliveryId: text(attempts.deliveryId),
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
