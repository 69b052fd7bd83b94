/**
 * The money path's CLI commands (docs/money-path.md): `reverse <transactionId>`, `refund <cardId>`,
 * `force-post <cardId>`, `update-amount <authorisationId>`,
 * `block|suspend|reinstate <cardId>` and `fail-account <accountId>`, each one control of
 * /_sandbox/simulator, printing the resource as it is now (with --json, as the API returns it).
 * Partial captures are `capture --amount` (simulate.ts), fees `fees` (fees.ts).
 */
import { z } from 'zod';
import type { Account, Authorisation, Card, Transaction } from '../../client/control.generated.js';
import type { Client, CommandContext } from '../client.js';
import { command, printed, tool } from '../command.js';

const id = (noun: string) => z.string().describe(`the ${noun}'s id`);

/** A transaction in a few lines: its state, direction and amounts. */
function printTransaction({ io }: CommandContext, t: Transaction, next: string) {
  const c = io.color;
  const row = (label: string, value: string) => io.out(`  ${c.dim(label.padEnd(10))} ${value}`);
  io.out(`${c.green('✓')} transaction ${c.bold(t.id)} ${io.status(t.status)}`);
  const converted = t.currency === t.merchantCurrency ? '' : c.dim(` (merchant ${t.merchantAmount} ${t.merchantCurrency} at ${t.exchangeRate})`);
  row(t.direction, `${t.amount} ${t.currency}${converted}`);
  if (t.fees.length) row('fees', t.fees.map((f) => `${f.type} ${f.tokenAmount}`).join(', '));
  if (t.authorisationId) row('follows', `authorisation ${t.authorisationId}`);
  row('next', next);
}

export const reverse = printed(
  (client: Client, transactionId: string) => client.reverseTransaction(transactionId),
  (ctx, t) => printTransaction(ctx, t, 'reversed 1 s of sandbox time later'),
);

export interface RefundOptions {
  amount: string;
  currency: string;
  transactionId?: string | undefined;
  merchantName?: string | undefined;
}

export const refund = printed(
  (client: Client, cardId: string, { amount, currency, transactionId, merchantName }: RefundOptions) =>
    client.refundCard(cardId, {
      amount,
      currency,
      ...(transactionId !== undefined && { transactionId }),
      ...(merchantName !== undefined && { merchant: { name: merchantName } }),
    }),
  (ctx, t) => printTransaction(ctx, t, 'processed 1 s of sandbox time later'),
);

export interface ForcePostOptions {
  amount: string;
  currency: string;
  merchantName?: string | undefined;
}

export const forcePost = printed(
  (client: Client, cardId: string, { amount, currency, merchantName }: ForcePostOptions) =>
    client.forcePostTransaction(cardId, { amount, currency, ...(merchantName !== undefined && { merchant: { name: merchantName } }) }),
  (ctx, t) => printTransaction(ctx, t, 'processed 1 s of sandbox time later'),
);

export const updateAmount = printed(
  (client: Client, authorisationId: string, amount: string): Promise<Authorisation> => client.updateAuthorisationAmount(authorisationId, { amount }),
  ({ io }, a) => io.out(`${io.color.green('✓')} authorisation ${io.color.bold(a.id)} ${io.status(a.status)} for ${a.amount} ${a.currency}, its hold with it`),
);

const CARD_MOVES = {
  block: { operation: 'blockCard', description: 'The issuer blocks an active or suspended card: it takes no payment and cannot be activated' },
  suspend: { operation: 'suspendCard', description: 'The issuer suspends an active card for a while' },
  reinstate: { operation: 'reinstateCard', description: 'The issuer lets a suspended card take payments again (a blocked card never does)' },
} as const;
type CardMove = keyof typeof CARD_MOVES;

export const moveCard = printed(
  (client: Client, move: CardMove, cardId: string): Promise<Card> => client[CARD_MOVES[move].operation](cardId),
  ({ io }, card) => io.out(`${io.color.green('✓')} card ${io.color.bold(card.id)} ${io.status(card.status)}`),
);

export const failAccount = printed(
  (client: Client, accountId: string): Promise<Account> => client.failAccount(accountId),
  ({ io }, account) => io.out(`${io.color.green('✓')} account ${io.color.bold(account.id)} ${io.status(account.status)}`),
);

interface RefundFlags {
  amount: string;
  currency: string;
  transaction?: string;
  merchantName?: string;
}

export const moneyCommands = [
  command({
    name: 'reverse',
    args: '<transactionId>',
    description: 'Reverse a processed debit: reversing now, reversed 1 s later',
    examples: ['reverse <transactionId>', 'reverse <transactionId> --json'],
    run: (_flags, transactionId) => (ctx) => reverse(ctx, transactionId),
    tool: tool({
      description: 'Reverse a processed debit: reversing now, reversed a second later.',
      input: { transactionId: id('transaction') },
      data: (client, { transactionId }) => reverse.data(client, transactionId),
    }),
  }),
  command<RefundFlags>({
    name: 'refund',
    args: '<cardId>',
    description: "A merchant's refund on a card: a new credit transaction on its account",
    examples: ['refund <cardId> --amount 5 --currency EUR', 'refund <cardId> --amount 12.50 --currency USD --transaction <transactionId>'],
    options: [
      { flags: '--amount <decimal>', description: 'amount given back in the merchant currency, e.g. 5', required: true },
      { flags: '--currency <code>', description: 'ISO 4217 merchant currency, e.g. EUR', required: true },
      { flags: '--transaction <transactionId>', description: 'the processed debit it gives back (part of): linked to its authorisation, with its merchant' },
      { flags: '--merchant-name <name>', description: "merchant name (default the debit's, or Test Merchant)" },
    ],
    run: (flags, cardId) => (ctx) =>
      refund(ctx, cardId, { amount: flags.amount, currency: flags.currency, transactionId: flags.transaction, merchantName: flags.merchantName }),
    tool: tool({
      description: "A merchant's refund on a card: a new credit transaction, linked to the debit transactionId names.",
      input: {
        cardId: id('card'),
        amount: z.string().describe('a decimal amount, 5'),
        currency: z.string().describe('ISO 4217, EUR'),
        transactionId: z.string().optional().describe('the processed debit it gives back'),
        merchantName: z.string().optional(),
      },
      data: (client, { cardId, ...options }) => refund.data(client, cardId, options),
    }),
  }),
  command<{ amount: string; currency: string; merchantName?: string }>({
    name: 'force-post',
    args: '<cardId>',
    description: 'A debit with no authorisation (force post): a new debit transaction on the card, its amount taken from the balance',
    examples: ['force-post <cardId> --amount 12.50 --currency EUR', 'force-post <cardId> --amount 8 --currency GBP --merchant-name "Late Cafe"'],
    options: [
      { flags: '--amount <decimal>', description: 'amount taken in the merchant currency, e.g. 12.50', required: true },
      { flags: '--currency <code>', description: 'ISO 4217 merchant currency, e.g. EUR', required: true },
      { flags: '--merchant-name <name>', description: 'merchant name (default Test Merchant)' },
    ],
    run: (flags, cardId) => (ctx) => forcePost(ctx, cardId, flags),
    tool: tool({
      description: 'A debit with no authorisation on a card (force post): processing now, processed a second later.',
      input: {
        cardId: id('card'),
        amount: z.string().describe('a decimal amount, 12.50'),
        currency: z.string().describe('ISO 4217, EUR'),
        merchantName: z.string().optional(),
      },
      data: (client, { cardId, ...options }) => forcePost.data(client, cardId, options),
    }),
  }),
  command<{ amount: string }>({
    name: 'update-amount',
    args: '<authorisationId>',
    description: "Raise or lower a pending authorisation's amount (an incremental authorisation or a partial reversal); its hold follows",
    examples: ['update-amount <authorisationId> --amount 80', 'update-amount <authorisationId> --amount 20 --json'],
    options: [{ flags: '--amount <decimal>', description: "the new amount, in the authorisation's currency, e.g. 80", required: true }],
    run: (flags, authorisationId) => (ctx) => updateAmount(ctx, authorisationId, flags.amount),
    tool: tool({
      description: "Raise or lower a pending authorisation's amount, in its currency; its hold follows.",
      input: { authorisationId: id('authorisation'), amount: z.string().describe('the new amount, a decimal string such as "80"') },
      data: (client, { authorisationId, amount }) => updateAmount.data(client, authorisationId, amount),
    }),
  }),
  ...(Object.keys(CARD_MOVES) as CardMove[]).map((move) =>
    command({
      name: move,
      args: '<cardId>',
      description: CARD_MOVES[move].description,
      examples: [`${move} <cardId>`],
      run: (_flags, cardId) => (ctx) => moveCard(ctx, move, cardId),
      tool: tool({
        description: `${CARD_MOVES[move].description}.`,
        input: { cardId: id('card') },
        data: (client, { cardId }) => moveCard.data(client, move, cardId),
      }),
    }),
  ),
  command({
    name: 'fail-account',
    args: '<accountId>',
    description: 'Fail an account whose deployment has not finished (initiating or pending)',
    examples: ['fail-account <accountId>'],
    run: (_flags, accountId) => (ctx) => failAccount(ctx, accountId),
    tool: tool({
      description: 'Fail an account whose deployment has not finished (initiating or pending).',
      input: { accountId: id('account') },
      data: (client, { accountId }) => failAccount.data(client, accountId),
    }),
  }),
];
