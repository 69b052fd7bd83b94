/**
 * The programme's rates (docs/money-path.md: Moving rates): the rates it moved from the shipped
 * table, kept on its row and in memory; `money` is the programme's money tables, whose `rates` are
 * always the table as moved now, so every conversion — an authorisation, a refund, a capture —
 * reads the rate of its own time. Set whole by PUT /_sandbox/rates, put back by a snapshot's restore.
 */
import { eq } from 'drizzle-orm';
import type { Core } from './core.js';
import type { MoneyTables, RateTable } from '../domain/money.js';
import { movedTable, type MovedRates } from '../domain/rates.js';
import { programmes } from '../store/schema.js';

export interface Rates extends RateTable {
  /** The rates moved from the table; `{}` for none. */
  moved: MovedRates;
}

export function createRates({ store, programme }: Core, shipped: MoneyTables) {
  const { db } = store;
  let moved: MovedRates = {};
  let table = shipped.rates;

  const load = () => {
    moved = db.select({ rates: programmes.rates }).from(programmes).where(eq(programmes.id, programme)).get()?.rates ?? {};
    table = movedTable(shipped.rates, moved);
  };
  load();

  const money: MoneyTables = {
    currencies: shipped.currencies,
    get rates() {
      return table;
    },
  };

  const view = (): Rates => ({ base: table.base, rates: { ...table.rates }, moved: { ...moved } });

  return {
    money,
    get: view,

    /** Replaces the moved rates, checked and normalised by the caller: those of every conversion from now on; `{}` is the table. */
    set(next: MovedRates): Rates {
      db.update(programmes)
        .set({ rates: Object.keys(next).length ? next : null })
        .where(eq(programmes.id, programme))
        .run();
      load();
      return view();
    },

    /** Reads them again from the programme's row (after a snapshot is restored). */
    reload: load,
  };
}

export type RatesService = ReturnType<typeof createRates>;
