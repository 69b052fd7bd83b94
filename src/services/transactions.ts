/**
 * Transactions: the debit a captured authorisation leaves on its account. Recorded inside the
 * capture's database transaction, settled by a job one second later; read one at a time or per
 * account or card, oldest first. Every change appends one `transaction.updated` event.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { iso } from '../domain/instant.js';
import type { Core } from './core.js';
import { parseAccountId } from '../domain/caip.js';
import { fail } from '../domain/errors.js';
import { chainTransactionId, SETTLEMENT_DELAY_MS, TRANSACTION_MACHINE, transactionTransition } from '../domain/transaction.js';
import { accounts, authorisations, cards, customers, transactions } from '../store/schema.js';
import { paymentOf, toTransaction, type Transaction } from '../wire/payment.js';
import type { Engine } from './engine.js';
import type { Events } from './outbox.js';
import type { Jobs } from './jobs.js';
import { lifecycle } from './lifecycle.js';

type TransactionRow = typeof transactions.$inferSelect;
type AuthorisationRow = typeof authorisations.$inferSelect;

const SETTLE = 'transaction.settle';

export function createTransactions(core: Core, { jobs, events, engine }: { jobs: Jobs; events: Events; engine: Engine }) {
  const { store, ids, random, programme } = core;
  const { db } = store;
  const mine = eq(transactions.programmeId, programme);
  const { create, find, load, move } = lifecycle(core, events, {
    table: transactions,
    machine: TRANSACTION_MACHINE,
    event: 'transaction.updated',
    notFound: 'transaction_not_found',
    view: toTransaction,
  });
  const oldestFirst = [asc(transactions.createdAt), asc(sql`rowid`)];

  /** The CAIP-2 chain of the customer who owns the account. */
  const chainOfAccount = (accountId: string): string => {
    const owner = db
      .select({ chainId: customers.chainId })
      .from(accounts)
      .innerJoin(customers, and(eq(customers.programmeId, accounts.programmeId), eq(customers.id, accounts.customerId)))
      .where(and(eq(accounts.programmeId, programme), eq(accounts.id, accountId)))
      .get();
    const chain = owner && parseAccountId(owner.chainId)?.chain;
    if (!chain) throw new Error(`account ${accountId} has no customer with a CAIP-10 chainId`);
    return chain;
  };

  jobs.define(SETTLE, (id, now) => {
    const row = find(id);
    if (row && transactionTransition(row.status, 'settle').ok) move(row, 'settle', now);
  });

  return {
    /** Records the debit of a just-captured authorisation; call inside the capture's transaction. */
    recordCapture(auth: AuthorisationRow, now: number): Transaction {
      const chain = chainOfAccount(auth.accountId);
      const token = engine.tokenFor(chain, auth.currency);
      if (!token) throw new Error(`no asset for ${auth.currency} on ${chain}`);
      const row: TransactionRow = {
        programmeId: programme,
        id: ids.uuid(),
        accountId: auth.accountId,
        cardId: auth.cardId,
        authorisationId: auth.id,
        status: 'processing',
        direction: 'debit',
        ...paymentOf(auth),
        // Stablecoins of the account currency: one token per unit.
        tokenAmount: auth.amount,
        token,
        fees: [],
        chainTransactions: [{ chainId: chainTransactionId(chain, random.bytes(32)), createdAt: iso(now) }],
        createdAt: now,
        updatedAt: now,
      };
      const recorded = create(row);
      jobs.schedule(SETTLE, row.id, now + SETTLEMENT_DELAY_MS);
      return recorded;
    },

    get: (id: string): Transaction => toTransaction(load(id)),

    forAccount(accountId: string): Transaction[] {
      if (
        !db
          .select({ id: accounts.id })
          .from(accounts)
          .where(and(eq(accounts.programmeId, programme), eq(accounts.id, accountId)))
          .get()
      )
        fail('account_not_found', `no account with id ${accountId}`);
      return db
        .select()
        .from(transactions)
        .where(and(mine, eq(transactions.accountId, accountId)))
        .orderBy(...oldestFirst)
        .all()
        .map(toTransaction);
    },

    forCard(cardId: string): Transaction[] {
      if (
        !db
          .select({ id: cards.id })
          .from(cards)
          .where(and(eq(cards.programmeId, programme), eq(cards.id, cardId)))
          .get()
      )
        fail('card_not_found', `no card with id ${cardId}`);
      return db
        .select()
        .from(transactions)
        .where(and(mine, eq(transactions.cardId, cardId)))
        .orderBy(...oldestFirst)
        .all()
        .map(toTransaction);
    },
  };
}

export type Transactions = ReturnType<typeof createTransactions>;
