/**
 * The programme's fees (docs/money-path.md: Fees): kept on its row and in memory, where every new
 * transaction reads them at no cost; set whole by PUT /_sandbox/fees, put back by a snapshot's
 * restore. A reset leaves them, as it leaves the delivery lab's faults.
 */
import { eq } from 'drizzle-orm';
import type { Core } from './core.js';
import { feesFor, type FeeSettings } from '../domain/fees.js';
import type { MoneyTables } from '../domain/money.js';
import type { Fee } from '../domain/transaction.js';
import { programmes } from '../store/schema.js';

export function createFees({ store, programme }: Core, money: MoneyTables) {
  const { db } = store;
  let settings: FeeSettings = {};

  const load = () => {
    settings = db.select({ fees: programmes.fees }).from(programmes).where(eq(programmes.id, programme)).get()?.fees ?? {};
  };
  load();

  return {
    get: (): FeeSettings => ({ ...settings }),

    /** Replaces the fees: those of every transaction made from now on. */
    set(next: FeeSettings): FeeSettings {
      const kept = Object.keys(next).length ? next : null;
      db.update(programmes).set({ fees: kept }).where(eq(programmes.id, programme)).run();
      settings = { ...next };
      return { ...settings };
    },

    /** Reads them again from the programme's row (after a snapshot is restored). */
    reload: load,

    /** The fees of a new transaction of `amount` in `currency`. */
    forTransaction: (amount: string, currency: string): Fee[] => feesFor(settings, amount, money.currencies[currency] ?? 2),
  };
}

export type Fees = ReturnType<typeof createFees>;
