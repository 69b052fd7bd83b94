/**
 * Funds (docs/money-path.md: Funds): each account's balance, kept on its row, and what its pending
 * authorisations hold. A capture takes from the balance, a credit adds, a reversal gives back (the
 * transactions service calls `move` inside the change's transaction); an authorisation or an
 * update asks `require` first. The control plane reads and sets a balance.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Core } from './core.js';
import { fail } from '../domain/errors.js';
import { fundsOf, insufficientFunds, type Funds } from '../domain/funds.js';
import { minus, normalise, sum } from '../domain/money.js';
import { accounts, authorisations, transactions } from '../store/schema.js';

export function createFunds(core: Core) {
  const { store, programme } = core;
  const { db } = store;
  const account = (id: string) =>
    db
      .select({ balance: accounts.balance, currency: accounts.currencies })
      .from(accounts)
      .where(and(eq(accounts.programmeId, programme), eq(accounts.id, id)))
      .get() ?? fail('account_not_found', `no account with id ${id}`);

  /**
   * What the account's authorisations hold in escrow: a pending one its amount less what its
   * earlier captures took (docs/money-path.md: Several captures of one hold), one capturing the
   * part being captured (until its debit takes it from the balance).
   */
  const holds = (id: string, except?: string): string[] => {
    const open = db
      .select({ id: authorisations.id, status: authorisations.status, amount: authorisations.amount, taken: authorisations.capturedAmount })
      .from(authorisations)
      .where(and(eq(authorisations.programmeId, programme), eq(authorisations.accountId, id), inArray(authorisations.status, ['pending', 'capturing'])))
      .all()
      .filter((hold) => hold.id !== except);
    const pending = open.filter((hold) => hold.status === 'pending').map((hold) => hold.id);
    const captured = pending.length ? Map.groupBy(capturesOf(id, pending), (debit) => debit.authorisationId) : new Map();
    return open.map((hold) =>
      hold.status === 'capturing'
        ? (hold.taken ?? hold.amount)
        : minus(hold.amount, sum((captured.get(hold.id) ?? []).map((d: { amount: string }) => d.amount))),
    );
  };

  /** The debits the captures of these authorisations of account `accountId` made so far. */
  const capturesOf = (accountId: string, ids: string[]) =>
    db
      .select({ authorisationId: transactions.authorisationId, amount: transactions.amount })
      .from(transactions)
      .where(
        and(
          eq(transactions.programmeId, programme),
          eq(transactions.accountId, accountId),
          inArray(transactions.authorisationId, ids),
          eq(transactions.direction, 'debit'),
        ),
      )
      .all();

  const service = {
    /** What the captures of authorisation `id` of account `accountId` took so far, in its currency. */
    captured: (accountId: string, id: string): string => sum(capturesOf(accountId, [id]).map((debit) => debit.amount)),

    get(id: string): Funds {
      return fundsOf(account(id).balance, holds(id));
    },

    /** Sets the balance; what is held stays held. */
    set(id: string, amount: string): Funds {
      return store.transaction(() => {
        account(id);
        db.update(accounts)
          .set({ balance: normalise(amount) })
          .where(and(eq(accounts.programmeId, programme), eq(accounts.id, id)))
          .run();
        return service.get(id);
      });
    },

    /** Adds `delta` (negative to take) to the balance; call inside the change's transaction. */
    move(id: string, delta: string): void {
      const { balance } = account(id);
      db.update(accounts)
        .set({ balance: sum([balance, delta]) })
        .where(and(eq(accounts.programmeId, programme), eq(accounts.id, id)))
        .run();
    },

    /**
     * Refuses `insufficient_funds` unless `amount` is available on the account, leaving out what
     * authorisation `replacing` holds (an update replaces its hold); call inside the change's transaction.
     */
    require(id: string, amount: string, currency: string, replacing?: string): void {
      const refusal = insufficientFunds(fundsOf(account(id).balance, holds(id, replacing)), amount, currency);
      if (refusal) fail('insufficient_funds', refusal);
    },
  };
  return service;
}

export type FundsService = ReturnType<typeof createFunds>;
