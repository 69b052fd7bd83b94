/**
 * Transactions: the debit a captured authorisation leaves on its account and the credit a refund
 * makes (docs/money-path.md: Refunds), each recorded `processing` with the programme's fees and
 * settled by a job one second later; a debit reversed (`reversing`, then `reversed` one second
 * later: docs/money-path.md: Reversals); read one at a time or per account or card, oldest first.
 * Every change appends one `transaction.updated` event.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { capturedAmounts } from '../domain/authorisation.js';
import { iso } from '../domain/instant.js';
import type { Core } from './core.js';
import { parseAccountId } from '../domain/caip.js';
import { fail } from '../domain/errors.js';
import { settledTokenAmount } from '../domain/fees.js';
import { exchangeRate, normalise, sum, type MoneyTables } from '../domain/money.js';
import {
  chainTransactionId,
  REVERSAL_DELAY_MS,
  reversalRefusal,
  SETTLEMENT_DELAY_MS,
  TRANSACTION_MACHINE,
  transactionTransition,
} from '../domain/transaction.js';
import { accounts, authorisations, cards, customers, transactions } from '../store/schema.js';
import { paymentOf, toTransaction, type Transaction } from '../wire/payment.js';
import type { Engine } from './engine.js';
import type { Fees } from './fees.js';
import type { FundsService } from './funds.js';
import type { Events } from './outbox.js';
import type { Jobs } from './jobs.js';
import { lifecycle } from './lifecycle.js';

type TransactionRow = typeof transactions.$inferSelect;
type AuthorisationRow = typeof authorisations.$inferSelect;

/** What a new transaction is made of; the sandbox adds its token, fees, chain transaction and times. */
export type NewTransaction = Pick<
  TransactionRow,
  'accountId' | 'cardId' | 'authorisationId' | 'direction' | 'amount' | 'currency' | 'merchantAmount' | 'merchantCurrency' | 'exchangeRate' | 'merchant'
>;

const SETTLE = 'transaction.settle';
const COMPLETE_REVERSAL = 'transaction.complete-reversal';

export function createTransactions(
  core: Core,
  { jobs, events, engine, fees, funds, money }: { jobs: Jobs; events: Events; engine: Engine; fees: Fees; funds: FundsService; money: MoneyTables },
) {
  const { store, clock, ids, random, programme } = core;
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
  jobs.define(COMPLETE_REVERSAL, (id, now) => {
    const row = find(id);
    if (row && transactionTransition(row.status, 'complete').ok) move(row, 'complete', now);
  });

  /** The amounts of the transactions of `direction` linked to `authorisationId`. */
  const linkedTo = (authorisationId: string, direction: TransactionRow['direction']): string[] =>
    db
      .select({ amount: transactions.amount })
      .from(transactions)
      .where(and(mine, eq(transactions.authorisationId, authorisationId), eq(transactions.direction, direction)))
      .all()
      .map((r) => r.amount);

  /** The amounts of the credits that follow the debit of `authorisationId`. */
  const refundedOf = (authorisationId: string | null): string[] => (authorisationId === null ? [] : linkedTo(authorisationId, 'credit'));

  /** The amounts of the debits its captures made, for a debit of an authorisation; its own amount otherwise. */
  const debitsOf = (debit: Pick<TransactionRow, 'authorisationId' | 'amount'>): string[] =>
    debit.authorisationId === null ? [debit.amount] : linkedTo(debit.authorisationId, 'debit');

  /** The rate from the authorisation's merchant currency to its own now (docs/money-path.md: Moving rates). */
  const rateNow = (auth: AuthorisationRow): string => {
    const rate = exchangeRate(money.rates, auth.merchantCurrency, auth.currency);
    return rate ? normalise(rate) : auth.exchangeRate;
  };

  const service = {
    /**
     * Writes a new transaction `processing`, with its token, the programme's fees and a chain
     * transaction, and schedules its settlement; call inside a transaction. With `requireFunds`, a
     * debit is refused `insufficient_funds` unless what it settles is available.
     */
    record(made: NewTransaction, now: number, { requireFunds = false } = {}): Transaction {
      const chain = chainOfAccount(made.accountId);
      const token = engine.tokenFor(chain, made.currency);
      if (!token) throw new Error(`no asset for ${made.currency} on ${chain}`);
      const charged = fees.forTransaction(made.amount, made.currency);
      // Stablecoins of the account currency, one token per unit; the fees are part of what settles.
      const tokenAmount = settledTokenAmount(made.direction, made.amount, charged);
      if (tokenAmount === undefined)
        fail('invalid_request', `invalid body: amount: the programme's fees (${sum(charged.map((f) => f.tokenAmount))}) would take all of ${made.amount}`, [
          { path: 'amount', message: `the programme's fees would take all of ${made.amount} ${made.currency}` },
        ]);
      if (requireFunds && made.direction === 'debit') funds.require(made.accountId, tokenAmount, made.currency);
      const row: TransactionRow = {
        programmeId: programme,
        id: ids.uuid(),
        ...made,
        status: 'processing',
        tokenAmount,
        token,
        fees: charged,
        chainTransactions: [{ chainId: chainTransactionId(chain, random.bytes(32)), createdAt: iso(now) }],
        createdAt: now,
        updatedAt: now,
      };
      const recorded = create(row);
      funds.move(row.accountId, made.direction === 'debit' ? `-${tokenAmount}` : tokenAmount);
      jobs.schedule(SETTLE, row.id, now + SETTLEMENT_DELAY_MS);
      return recorded;
    },

    /** Records the debit of a just-captured authorisation, for the part captured; call inside the capture's transaction. */
    recordCapture(auth: AuthorisationRow, now: number): Transaction {
      return service.record(
        {
          accountId: auth.accountId,
          cardId: auth.cardId,
          authorisationId: auth.id,
          direction: 'debit',
          ...paymentOf(auth),
          ...capturedAmounts(auth, money.currencies, rateNow(auth)),
        },
        now,
      );
    },

    /** The row, or undefined. */
    find,

    refundedOf,

    debitsOf,

    /** A debit taken back: `reversing` at once, `reversed` one second later. */
    reverse: (id: string): Transaction =>
      store.transaction(() => {
        const row = load(id);
        const refusal = reversalRefusal(row, refundedOf(row.authorisationId).length);
        if (refusal) fail('invalid_state_transition', refusal);
        const now = clock.now();
        const next = move(row, 'reverse', now);
        // The whole of what the debit took comes back, fees included (docs/money-path.md: Fees).
        funds.move(row.accountId, row.tokenAmount);
        jobs.cancel(SETTLE, id);
        jobs.schedule(COMPLETE_REVERSAL, id, now + REVERSAL_DELAY_MS);
        return toTransaction(next);
      }),

    /** A seed world's transaction settled now rather than by its job. */
    settleAtOnce: (id: string): Transaction =>
      store.transaction(() => {
        jobs.cancel(SETTLE, id);
        return toTransaction(move(load(id), 'settle', clock.now()));
      }),

    /** A seed world's debit settled and reversed in one instant. */
    reverseAtOnce: (id: string): Transaction => {
      if (service.get(id).status === 'processing') service.settleAtOnce(id);
      service.reverse(id);
      return store.transaction(() => {
        jobs.cancel(COMPLETE_REVERSAL, id);
        return toTransaction(move(load(id), 'complete', clock.now()));
      });
    },

    /** The debit a captured authorisation left. */
    debitOf: (authorisationId: string): Transaction =>
      toTransaction(
        db
          .select()
          .from(transactions)
          .where(and(mine, eq(transactions.authorisationId, authorisationId), eq(transactions.direction, 'debit')))
          .get()!,
      ),

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
  return service;
}

export type Transactions = ReturnType<typeof createTransactions>;
