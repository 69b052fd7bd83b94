/**
 * The Authorisation and Transaction resources: their wire shapes and the mappings from their rows
 * (docs/api.md: Authorisations and transactions), and what the simulator's authorisation takes. A
 * transaction carries its authorisation's amounts, rate and merchant: `paymentOf` is that part of both.
 */
import { z } from 'zod';
import { iso } from '../domain/instant.js';
import { amountProblems, type MoneyTables } from '../domain/money.js';
import type { authorisations, transactions } from '../store/schema.js';
import { amountRules, anyAmountPattern } from './amount.js';
import {
  AccountId,
  AmountInput,
  AuthorisationId,
  AuthorisationStatus,
  BlockchainAssetId,
  BlockchainTransactionId,
  CardId,
  Currency,
  CurrencyInput,
  DateTime,
  Decimal,
  FeeType,
  oneOfPattern,
  TransactionDirection,
  TransactionId,
  TransactionStatus,
} from './scalars.js';

export const Merchant = z.object({ id: z.string(), name: z.string(), mcc: z.number().int(), country: z.string(), city: z.string() }).meta({ id: 'Merchant' });
export const Fee = z.object({ type: FeeType, tokenAmount: Decimal }).meta({ id: 'Fee' });
export const ChainTransaction = z.object({ chainId: BlockchainTransactionId, createdAt: DateTime }).meta({ id: 'ChainTransaction' });

const payment = {
  amount: Decimal,
  currency: Currency,
  merchantAmount: Decimal,
  merchantCurrency: Currency,
  exchangeRate: Decimal,
  merchant: Merchant,
};

export const Authorisation = z
  .object({
    id: AuthorisationId,
    accountId: AccountId,
    // Always sent; optional as the service's document has it (docs/api.md: Where the sandbox differs from the service's document).
    cardId: CardId.optional(),
    status: AuthorisationStatus,
    ...payment,
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Authorisation' });

export type Authorisation = z.infer<typeof Authorisation>;

const text = z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

export const MerchantOverride = z
  .object({
    id: text.optional(),
    name: text.optional(),
    // A refinement rather than .int(): zod's integer check stops the checks that name other bad fields.
    mcc: z
      .number()
      .min(0)
      .max(9999)
      .refine(Number.isInteger, 'must be an integer')
      .optional()
      .meta({ type: 'integer', minimum: 0, maximum: 9999, description: 'Merchant Category Code (ISO 18245)' }),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code such as GB')
      .optional(),
    city: text.optional(),
  })
  .meta({ description: 'Replaces the given fields of the default merchant {id:"TEST", name:"Test Merchant", mcc:9999, country:"GB", city:"London"}' });

/**
 * POST /v1/simulator/cards/{cardId}/authorisation: the amount is checked against the minor-unit
 * digits of its currency, which must be one the rate table converts from.
 */
export const AuthorisationRequest = ({ currencies, rates }: MoneyTables) => {
  const convertible = Object.fromEntries(Object.entries(currencies).filter(([code]) => Object.hasOwn(rates.rates, code)));
  return (
    z
      .object({
        amount: AmountInput.meta({
          format: 'decimal',
          pattern: anyAmountPattern(convertible),
          description: 'Amount in `currency`, > 0, at most its ISO 4217 minor-unit digits',
        }),
        currency: CurrencyInput.meta({
          pattern: oneOfPattern(Object.keys(convertible)),
          description: 'Merchant currency (ISO 4217), one the sandbox has a rate for',
        }),
        capture: z.boolean({ error: 'must be true or false' }).default(true).meta({ description: 'Capture automatically one second after authorising' }),
        merchant: MerchantOverride.optional(),
      })
      // Runs even when other fields failed, so that one answer names every bad field.
      .superRefine(
        (body, ctx) => {
          for (const { path, message } of amountProblems(body.amount, body.currency, currencies, rates))
            ctx.addIssue({ code: 'custom', path: [path], message });
        },
        { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
      )
      .meta(amountRules(convertible))
  );
};

/** The request as validated: `capture` defaulted. */
export type AuthorisationRequest = z.output<ReturnType<typeof AuthorisationRequest>>;

export const Transaction = z
  .object({
    id: TransactionId,
    accountId: AccountId,
    cardId: CardId.optional(),
    authorisationId: AuthorisationId.optional(),
    status: TransactionStatus,
    direction: TransactionDirection,
    ...payment,
    tokenAmount: Decimal,
    token: BlockchainAssetId,
    fees: z.array(Fee),
    chainTransactions: z.array(ChainTransaction),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Transaction' });

export type Transaction = z.infer<typeof Transaction>;

type AuthorisationRow = typeof authorisations.$inferSelect;
type TransactionRow = typeof transactions.$inferSelect;

/** The amounts, rate and merchant of a payment, in the reference's field order. */
export function paymentOf(row: Pick<AuthorisationRow, keyof typeof payment>) {
  return {
    amount: row.amount,
    currency: row.currency,
    merchantAmount: row.merchantAmount,
    merchantCurrency: row.merchantCurrency,
    exchangeRate: row.exchangeRate,
    merchant: row.merchant,
  };
}

export function toAuthorisation(row: AuthorisationRow): Authorisation {
  return {
    id: row.id,
    accountId: row.accountId,
    cardId: row.cardId,
    status: row.status,
    ...paymentOf(row),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** `cardId` and `authorisationId` only when the transaction has them. */
export function toTransaction(row: TransactionRow): Transaction {
  return {
    id: row.id,
    accountId: row.accountId,
    ...(row.cardId !== null && { cardId: row.cardId }),
    ...(row.authorisationId !== null && { authorisationId: row.authorisationId }),
    status: row.status,
    direction: row.direction,
    ...paymentOf(row),
    tokenAmount: row.tokenAmount,
    token: row.token,
    fees: row.fees,
    chainTransactions: row.chainTransactions,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
