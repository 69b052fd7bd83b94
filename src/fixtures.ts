/** Reads the data shipped in `fixtures/` (chains and assets, rates, seed worlds). */
import { readFileSync } from 'node:fs';
import type { MoneyTables, RateTable } from './domain/money.js';
import { packagePath } from './paths.js';

export function readFixture<T>(name: string): T {
  return JSON.parse(readFileSync(packagePath('fixtures', name), 'utf8')) as T;
}

/** The shipped ISO 4217 table and rate table. */
export function loadMoneyTables(): MoneyTables {
  return {
    currencies: readFixture<{ currencies: Record<string, number> }>('currencies.json').currencies,
    rates: readFixture<RateTable>('rates.json'),
  };
}
