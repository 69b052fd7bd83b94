/**
 * The seed world document (docs/control-plane.md: Seed worlds) that `--seed`, `card-sandbox seed` and POST
 * /_sandbox/seed load, and what loading it answers. The document is checked whole before anything
 * is loaded; every problem is named by its place (`customers[0].accounts[1].currencies`). Objects
 * are strict: a misspelt field in a hand-written world is an error, not a silently ignored wish.
 */
import { z } from 'zod';
import { ACCOUNT_TYPES } from '../domain/account.js';
import { Address } from '../domain/address.js';
import { CARD_TYPES } from '../domain/card.js';
import { SandboxError } from '../domain/errors.js';
import type { MoneyTables } from '../domain/money.js';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import {
  SEED_ACCOUNT_STATUSES,
  SEED_AUTHORISATION_STATUSES,
  SEED_CARD_STATUSES,
  SEED_CUSTOMER_STATUSES,
  SEED_DEBIT_STATUSES,
  SEED_REFUND_STATUSES,
  seedPath,
  seedTreeErrors,
} from '../domain/seed.js';
import { Balance } from './funds.js';
import { AmountInput, BlockchainAccountId, CurrencyInput } from './scalars.js';
import { NewAccount } from './account.js';
import { walletOn } from './customer.js';
import { payment } from './money-path.js';
import { MerchantOverride } from './payment.js';
import { CALLBACK_URL } from './webhook.js';

const list = <T extends z.ZodType>(item: T) => z.array(item, { error: 'must be an array' }).default([]);
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` });

/**
 * A payment's amount, currency and merchant, and `more`: with the sandbox's `money`, each rule of
 * the simulated authorisation and refund, stated in the schema and applied as it parses.
 */
const seedPayment = <T extends z.core.$ZodLooseShape>(money: MoneyTables | undefined, what: string, more: T) =>
  money ? payment(money, what, more) : z.strictObject({ amount: AmountInput, currency: CurrencyInput, merchant: MerchantOverride.optional(), ...more });

/** A merchant's refund: a credit on the card's account (docs/money-path.md: Refunds). */
const seedRefund = (money: MoneyTables | undefined) => seedPayment(money, 'gives back', { status: oneOf(SEED_REFUND_STATUSES).default('processed') });

/** A card payment: authorised, then held, captured (whole or `capturedAmount` of it) or released; a capture's debit, then its refunds. */
const seedAuthorisation = (money: MoneyTables | undefined) =>
  seedPayment(money, 'asks for', {
    status: oneOf(SEED_AUTHORISATION_STATUSES).default('captured'),
    capturedAmount: z.string({ error: 'must be a decimal string such as "5"' }).optional(),
    transaction: oneOf(SEED_DEBIT_STATUSES).optional(),
    refunds: list(seedRefund(money)),
  });

const seedCard = (money: MoneyTables | undefined) =>
  z.strictObject({
    type: oneOf(CARD_TYPES).default('virtual'),
    status: oneOf(SEED_CARD_STATUSES).default('active'),
    billingAddress: Address.optional(),
    shippingAddress: Address.optional(),
    authorisations: list(seedAuthorisation(money)),
    refunds: list(seedRefund(money)),
  });

const seedAccount = (money: MoneyTables | undefined) =>
  z.strictObject({
    type: oneOf(ACCOUNT_TYPES).optional(),
    // The rule of POST /v1/customers/{customerId}/accounts, which loading the account applies.
    currencies: NewAccount.shape.currencies,
    status: oneOf(SEED_ACCOUNT_STATUSES).default('active'),
    /** What its smart account holds before its cards' payments (docs/money-path.md: Funds); the programme's starting balance otherwise. */
    balance: Balance.optional(),
    cards: list(seedCard(money)),
  });

/** What the sandbox's engine and money tables allow, which the control plane's schema states. */
export interface SeedRules {
  chains: readonly string[];
  money: MoneyTables;
}

/** A customer; its `chainId`, when given, a wallet as POST /v1/customers takes it, on one of the rules' chains when they are known. */
const seedCustomer = (rules: SeedRules | undefined) =>
  z.strictObject({
    externalId: z.string({ error: 'must be a string' }).min(1, 'must not be empty'),
    chainId: (rules ? walletOn(rules.chains) : BlockchainAccountId).optional(),
    status: oneOf(SEED_CUSTOMER_STATUSES).default('active'),
    accounts: list(seedAccount(rules?.money)),
  });

const SeedWebhook = z.strictObject({
  callbackUrl: z.string({ error: 'must be a string' }).meta(CALLBACK_URL),
  types: z.array(oneOf(WEBHOOK_TYPES), { error: 'must be an array of webhook types' }).min(1, 'must name at least one webhook type'),
});

/**
 * The document, for a sandbox whose engine and money tables are `rules` (the control plane's, whose
 * schema states them); without them, a `chainId` on another chain or a payment in a currency
 * without a rate is refused when it is loaded.
 */
export const seedDocument = (rules?: SeedRules) =>
  z
    .strictObject(
      {
        description: z.string().optional(),
        webhooks: list(SeedWebhook),
        customers: list(seedCustomer(rules)),
      },
      { error: 'must be a JSON object' },
    )
    .superRefine((document, ctx) => {
      for (const error of seedTreeErrors(document)) ctx.addIssue({ code: 'custom', message: error.message, path: error.path });
    });

export const SeedDocument = seedDocument();
export type SeedDocument = z.infer<typeof SeedDocument>;
export type SeedCustomer = SeedDocument['customers'][number];
export type SeedAccount = SeedCustomer['accounts'][number];
export type SeedCard = SeedAccount['cards'][number];
export type SeedAuthorisation = SeedCard['authorisations'][number];
export type SeedRefund = SeedCard['refunds'][number];

/** The customers, accounts, cards and payments of a document that did not parse, as far as their statuses are valid, for the tree's checks. */
function looseTree(value: unknown): Parameters<typeof seedTreeErrors>[0] {
  const items = (v: unknown, key: string): Record<string, unknown>[] => {
    const list = (v as Record<string, unknown> | null)?.[key];
    return Array.isArray(list) ? list.filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null) : [];
  };
  // A status the schema refused (or left to its default) is one that holds children: its own error says enough.
  const status = (item: Record<string, unknown>, valid: readonly string[], holding: string) =>
    typeof item.status === 'string' && valid.includes(item.status) ? item.status : holding;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const card = (c: Record<string, unknown>) => ({
    status: status(c, SEED_CARD_STATUSES, 'active'),
    authorisations: items(c, 'authorisations').map((a) => ({
      status: status(a, SEED_AUTHORISATION_STATUSES, 'captured'),
      capturedAmount: text(a.capturedAmount),
      transaction: SEED_DEBIT_STATUSES.find((t) => t === a.transaction),
      refunds: items(a, 'refunds'),
    })),
    refunds: items(c, 'refunds'),
  });
  return {
    customers: items(value, 'customers').map((customer) => ({
      status: status(customer, SEED_CUSTOMER_STATUSES, 'active'),
      accounts: items(customer, 'accounts').map((account) => ({
        status: status(account, SEED_ACCOUNT_STATUSES, 'active'),
        cards: items(account, 'cards').map(card),
      })),
    })),
  };
}

/** The document checked whole (by `schema`, made by `seedDocument`); a 400 naming every bad place, or the typed document. */
export function parseSeedDocument(value: unknown, schema: z.ZodType<SeedDocument, unknown> = SeedDocument): SeedDocument {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues
    .map((issue) => {
      const path = seedPath(issue.path);
      const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : [];
      return unknownKeys.length
        ? unknownKeys.map((key) => ({ path: path ? `${path}.${key}` : key, message: 'is not a field of the seed format' }))
        : [{ path: path || 'body', message: issue.message }];
    })
    .flat();
  // The checks of the tree run on what parsed: told with the others, not after they are fixed.
  for (const error of seedTreeErrors(looseTree(value))) {
    const path = seedPath(error.path);
    if (!errors.some((e) => e.path === path)) errors.push({ path, message: error.message });
  }
  throw new SandboxError('invalid_request', `invalid seed document (nothing was loaded): ${[...new Set(errors.map((e) => e.path))].join(', ')}`, errors);
}

const Created = z.object({ id: z.string(), status: z.string() });

/** A card's payments, when the document gave it some: each authorisation with its debit and refunds, then the card's own refunds. */
const SeededCard = Created.extend({
  authorisations: z.array(Created.extend({ transaction: Created.optional(), refunds: z.array(Created).optional() })).optional(),
  refunds: z.array(Created).optional(),
});

/** POST /_sandbox/seed: what was created, in document order, with the states things ended in. */
export const SeedResult = z
  .object({
    webhooks: z.array(z.object({ id: z.string(), callbackUrl: z.string() })),
    customers: z.array(Created.extend({ externalId: z.string(), accounts: z.array(Created.extend({ cards: z.array(SeededCard) })) })),
  })
  .meta({ id: 'SeedResult' });
export type SeedResult = z.infer<typeof SeedResult>;
