/** `authorise <cardId> --amount --currency [--no-capture] [--merchant-…]`: a simulated card authorisation. */
import type { Merchant } from '../../domain/authorisation.js';
import { z } from 'zod';
import type { Client } from '../client.js';
import { command, positiveInt, printed, tool } from '../command.js';

export interface AuthoriseOptions {
  amount: string;
  currency: string;
  capture: boolean;
  /** The merchant fields given; the sandbox keeps its default merchant's for the rest (docs/api.md: Authorisations and transactions). */
  merchant?: { [K in keyof Merchant]?: Merchant[K] | undefined };
}

export const authorise = printed(
  (client: Client, cardId: string, options: AuthoriseOptions) => {
    const given = Object.entries(options.merchant ?? {}).filter(([, v]) => v !== undefined);
    const body = {
      amount: options.amount,
      currency: options.currency,
      capture: options.capture,
      ...(given.length ? { merchant: Object.fromEntries(given) } : {}),
    };
    return client.simulateCardAuthorisation(cardId, body);
  },
  ({ io }, auth, cardId, options) => {
    const c = io.color;
    const row = (label: string, value: string) => io.out(`  ${c.dim(label.padEnd(10))} ${value}`);
    io.out(`${c.green('✓')} authorisation ${c.bold(auth.id)} ${io.status(auth.status)}`);
    const converted =
      auth.currency === auth.merchantCurrency ? '' : c.dim(` (merchant ${auth.merchantAmount} ${auth.merchantCurrency} at ${auth.exchangeRate})`);
    row('amount', `${auth.amount} ${auth.currency}${converted}`);
    row('merchant', `${auth.merchant.name} ${c.dim(`(${auth.merchant.city}, ${auth.merchant.country}, mcc ${auth.merchant.mcc})`)}`);
    row('card', cardId);
    row(
      'next',
      options.capture ? 'captured automatically by the sandbox' : `pending until \`card-sandbox capture ${auth.id}\` or \`card-sandbox release ${auth.id}\``,
    );
  },
);

interface AuthoriseFlags {
  amount: string;
  currency: string;
  capture: boolean;
  merchantName?: string;
  merchantId?: string;
  mcc?: number;
  merchantCountry?: string;
  merchantCity?: string;
}

export const authoriseCommand = command<AuthoriseFlags>({
  name: 'authorise',
  args: '<cardId>',
  description: 'Simulate a card authorisation (captured automatically unless --no-capture)',
  examples: ['authorise <cardId> --amount 12.50 --currency EUR', 'authorise <cardId> --amount 20 --currency GBP --no-capture --merchant-name "Corner Shop"'],
  options: [
    { flags: '--amount <decimal>', description: 'amount in the merchant currency, e.g. 12.50', required: true },
    { flags: '--currency <code>', description: 'ISO 4217 merchant currency, e.g. EUR', required: true },
    { flags: '--no-capture', description: 'hold the authorisation pending until `capture` or `release`' },
    { flags: '--merchant-name <name>', description: 'merchant name (default Test Merchant)' },
    { flags: '--merchant-id <id>', description: 'merchant id (default TEST)' },
    { flags: '--mcc <code>', description: 'merchant category code (default 9999)', parse: positiveInt('--mcc') },
    { flags: '--merchant-country <code>', description: 'merchant country, ISO 3166-1 alpha-2 (default GB)' },
    { flags: '--merchant-city <city>', description: 'merchant city (default London)' },
  ],
  run: (flags, cardId) => (ctx) =>
    authorise(ctx, cardId, {
      amount: flags.amount,
      currency: flags.currency,
      capture: flags.capture,
      merchant: { name: flags.merchantName, id: flags.merchantId, mcc: flags.mcc, country: flags.merchantCountry, city: flags.merchantCity },
    }),
  tool: tool({
    description: 'A merchant authorises a payment on an active card; captured about a second later unless capture is false.',
    input: {
      cardId: z.string().describe("the card's id"),
      amount: z.union([z.string(), z.number()]).describe('a decimal amount: "12.50", or the number 12.5'),
      currency: z.string().describe('ISO 4217, USD'),
      capture: z.boolean().optional().describe('capture automatically (default true)'),
      merchantName: z.string().optional(),
      merchantId: z.string().optional(),
      mcc: z.number().int().optional().describe('merchant category code (default 9999)'),
      merchantCountry: z.string().optional(),
      merchantCity: z.string().optional(),
    },
    data: (client, { cardId, amount, currency, capture, merchantName, merchantId, mcc, merchantCountry, merchantCity }) =>
      authorise.data(client, cardId, {
        amount: String(amount),
        currency,
        capture: capture ?? true,
        merchant: { name: merchantName, id: merchantId, mcc, country: merchantCountry, city: merchantCity },
      }),
  }),
});
