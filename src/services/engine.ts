/**
 * The engine: chains and assets the instance supports, from `fixtures/chains.json` — testnets in
 * the sandbox environment, mainnets in production.
 */
import type { Env } from '../config/index.js';
import { fail } from '../domain/errors.js';
import { isChainId } from '../domain/caip.js';
import type { MoneyTables, RateTable } from '../domain/money.js';
import { readFixture } from '../kernel/fixtures.js';
import type { Asset, Blockchain } from '../wire/engine.js';

interface ChainFixture {
  id: string;
  name: string;
  assets: { reference: string; name: string; symbol: string; currency: string }[];
}

export function createEngine(env: Env) {
  const fixture = readFixture<Record<Env, ChainFixture[]>>('chains.json')[env];
  const chains: Blockchain[] = fixture.map(({ id, name }) => ({ id, name }));
  const assets: (Asset & { currency: string })[] = fixture.flatMap((chain) =>
    chain.assets.map((a) => ({ id: `${chain.id}/${a.reference}`, blockchain: chain.id, name: a.name, symbol: a.symbol, currency: a.currency })),
  );
  const wire = ({ id, blockchain, name, symbol }: Asset): Asset => ({ id, blockchain, name, symbol });

  return {
    chains: (): Blockchain[] => chains,
    isSupportedChain: (chain: string): boolean => chains.some((c) => c.id === chain),
    assets(chain?: string): Asset[] {
      if (chain === undefined) return assets.map(wire);
      if (!isChainId(chain))
        fail('invalid_request', `chain must be a CAIP-2 chain id such as eip155:11155111, got "${chain}"`, [
          { path: 'chain', message: 'not a CAIP-2 chain id' },
        ]);
      return assets.filter((a) => a.blockchain === chain).map(wire);
    },
    /** The CAIP-19 asset that holds `currency` on `chain`, for transactions' `token`. */
    tokenFor(chain: string, currency: string): string | undefined {
      return assets.find((a) => a.blockchain === chain && a.currency === currency)?.id;
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;

/** The shipped ISO 4217 table and rate table. */
export function loadMoneyTables(): MoneyTables {
  return {
    currencies: readFixture<{ currencies: Record<string, number> }>('currencies.json').currencies,
    rates: readFixture<RateTable>('rates.json'),
  };
}
