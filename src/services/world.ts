/**
 * A programme's world at a glance, for the control plane and the inspector (docs/control-plane.md: Time travel and
 * the control plane): every customer with its accounts, their cards, and each card's
 * authorisations and transactions, each resource exactly as GET /v1 returns it; the webhook
 * subscriptions; and how many there are of each, with the outbox's deliveries by state. Read-only,
 * one query per table, every one of them for this programme only.
 */
import { asc, count, eq, sql, type AnyColumn } from 'drizzle-orm';
import type { Core } from './core.js';
import { DELIVERY_STATUSES } from '../domain/outbox.js';
import { accounts, authorisations, cards, customers, deliveries, events, transactions, webhooks } from '../store/schema.js';
import { toAccount } from '../wire/account.js';
import { toCard } from '../wire/card.js';
import { toCustomer } from '../wire/customer.js';
import { toAuthorisation, toTransaction } from '../wire/payment.js';
import { toWebhook } from '../wire/webhook.js';
import type { World, WorldAccount, WorldCard, WorldCounts, WorldCustomer } from '../wire/world.js';

export type { World, WorldAccount, WorldCard, WorldCounts, WorldCustomer };

export function createWorld({ store, programme }: Core) {
  const { db } = store;
  const mine = (programmeId: AnyColumn) => eq(programmeId, programme);
  // Oldest first, ties in insertion order, as the API lists them.
  const oldestFirst = (createdAt: AnyColumn) => [asc(createdAt), asc(sql`rowid`)];
  const countOf = (table: typeof customers | typeof accounts | typeof cards | typeof authorisations | typeof transactions | typeof webhooks | typeof events) =>
    db.select({ n: count() }).from(table).where(mine(table.programmeId)).get()?.n ?? 0;

  return {
    tree(): World {
      const customerRows = db
        .select()
        .from(customers)
        .where(mine(customers.programmeId))
        .orderBy(...oldestFirst(customers.createdAt))
        .all();
      const accountRows = db
        .select()
        .from(accounts)
        .where(mine(accounts.programmeId))
        .orderBy(...oldestFirst(accounts.createdAt))
        .all();
      const cardRows = db
        .select()
        .from(cards)
        .where(mine(cards.programmeId))
        .orderBy(...oldestFirst(cards.createdAt))
        .all();
      const authorisationRows = db
        .select()
        .from(authorisations)
        .where(mine(authorisations.programmeId))
        .orderBy(...oldestFirst(authorisations.createdAt))
        .all();
      const transactionRows = db
        .select()
        .from(transactions)
        .where(mine(transactions.programmeId))
        .orderBy(...oldestFirst(transactions.createdAt))
        .all();
      const webhookRows = db
        .select()
        .from(webhooks)
        .where(mine(webhooks.programmeId))
        .orderBy(...oldestFirst(webhooks.createdAt))
        .all();

      const accountsOf = Map.groupBy(accountRows, (a) => a.customerId);
      const cardsOf = Map.groupBy(cardRows, (c) => c.accountId);
      const authorisationsOf = Map.groupBy(authorisationRows, (a) => a.cardId);
      const transactionsOf = Map.groupBy(transactionRows, (t) => t.cardId);
      const cardlessOf = Map.groupBy(transactionRows, (t) => (t.cardId === null ? t.accountId : null));

      return {
        webhooks: webhookRows.map(toWebhook),
        customers: customerRows.map((customer) => ({
          ...toCustomer(customer),
          accounts: (accountsOf.get(customer.id) ?? []).map((account) => {
            const cardless = cardlessOf.get(account.id);
            return {
              ...toAccount(account),
              cards: (cardsOf.get(account.id) ?? []).map((card) => ({
                ...toCard(card),
                authorisations: (authorisationsOf.get(card.id) ?? []).map(toAuthorisation),
                transactions: (transactionsOf.get(card.id) ?? []).map(toTransaction),
              })),
              ...(cardless && { transactions: cardless.map(toTransaction) }),
            };
          }),
        })),
      };
    },

    counts(): WorldCounts {
      const byState = Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 0])) as WorldCounts['deliveries'];
      const states = db.select({ status: deliveries.status, n: count() }).from(deliveries).where(mine(deliveries.programmeId)).groupBy(deliveries.status).all();
      for (const { status, n } of states) byState[status] = n;
      return {
        customers: countOf(customers),
        accounts: countOf(accounts),
        cards: countOf(cards),
        authorisations: countOf(authorisations),
        transactions: countOf(transactions),
        webhooks: countOf(webhooks),
        events: countOf(events),
        deliveries: byState,
      };
    },
  };
}
