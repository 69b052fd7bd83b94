/**
 * The Authorisation and Transaction resources: their wire shapes and the mappings from their rows
 * (docs/api.md: Authorisations and transactions). A transaction carries its authorisation's amounts,
 * rate and merchant: `paymentOf` is that part of both.
 */
import { z } from 'zod';
import { iso } from '../clock.js';
import { AUTHORISATION_STATUSES, Merchant } from '../domain/authorisation.js';
import { DateTime, Decimal, Uuid } from '../domain/formats.js';
import { ChainTransaction, Fee, TRANSACTION_DIRECTIONS, TRANSACTION_STATUSES } from '../domain/transaction.js';
import type { authorisations, transactions } from '../store/schema.js';

const payment = {
  amount: Decimal,
  currency: z.string(),
  merchantAmount: Decimal,
  merchantCurrency: z.string(),
  exchangeRate: Decimal,
  merchant: Merchant,
};

export const Authorisation = z
  .object({ id: Uuid, accountId: Uuid, cardId: Uuid, status: z.enum(AUTHORISATION_STATUSES), ...payment, createdAt: DateTime, updatedAt: DateTime })
  .meta({ id: 'Authorisation' });

export type Authorisation = z.infer<typeof Authorisation>;

export const Transaction = z
  .object({
    id: Uuid,
    accountId: Uuid,
    cardId: Uuid.optional(),
    authorisationId: Uuid.optional(),
    status: z.enum(TRANSACTION_STATUSES),
    direction: z.enum(TRANSACTION_DIRECTIONS),
    ...payment,
    tokenAmount: Decimal,
    token: z.string().meta({ description: 'CAIP-19 asset id' }),
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
