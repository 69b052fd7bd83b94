/** `authorise <cardId> --amount --currency [--no-capture] [--merchant-…]`: a simulated card authorisation. */
import type { Merchant } from '../../domain/authorisation.js';
import type { CommandContext } from '../client.js';

export interface AuthoriseOptions {
  amount: string;
  currency: string;
  capture: boolean;
  /** The merchant fields given; the sandbox keeps its default merchant's for the rest (docs/api.md: Authorisations and transactions). */
  merchant?: { [K in keyof Merchant]?: Merchant[K] | undefined };
}

export async function authorise({ client, io, json }: CommandContext, cardId: string, options: AuthoriseOptions): Promise<void> {
  const given = Object.entries(options.merchant ?? {}).filter(([, v]) => v !== undefined);
  const body = {
    amount: options.amount,
    currency: options.currency,
    capture: options.capture,
    ...(given.length ? { merchant: Object.fromEntries(given) } : {}),
  };
  const auth = await client.simulateCardAuthorisation(cardId, body);
  if (json) return io.json(auth);

  const c = io.color;
  const row = (label: string, value: string) => io.out(`  ${c.dim(label.padEnd(10))} ${value}`);
  io.out(`${c.green('✓')} authorisation ${c.bold(auth.id)} ${io.status(auth.status)}`);
  const converted = auth.currency === auth.merchantCurrency ? '' : c.dim(` (merchant ${auth.merchantAmount} ${auth.merchantCurrency} at ${auth.exchangeRate})`);
  row('amount', `${auth.amount} ${auth.currency}${converted}`);
  row('merchant', `${auth.merchant.name} ${c.dim(`(${auth.merchant.city}, ${auth.merchant.country}, mcc ${auth.merchant.mcc})`)}`);
  row('card', cardId);
  row(
    'next',
    options.capture ? 'captured automatically by the sandbox' : `pending until \`card-sandbox capture ${auth.id}\` or \`card-sandbox release ${auth.id}\``,
  );
}
