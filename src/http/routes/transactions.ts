/**
 * /v1/authorisations/{id} and the reference's Transactions tag: one transaction, and the
 * transactions of an account or a card, oldest first. Also the response schemas of both
 * resources, which the simulator routes share.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../deps.js';
import { AUTHORISATION_STATUSES } from '../../domain/authorisation.js';
import { TRANSACTION_DIRECTIONS, TRANSACTION_STATUSES } from '../../domain/transaction.js';
import type { Api } from '../env.js';
import { idParam, jsonResponse, problem, standardProblems, Uuid } from '../schemas.js';

const Decimal = z.string().openapi({ format: 'decimal', description: 'A decimal number as a string, without trailing zeros' });
const DateTime = z.iso.datetime();

export const Merchant = z
  .object({ id: z.string(), name: z.string(), mcc: z.number().int(), country: z.string(), city: z.string() })
  .openapi('Merchant');

export const Authorisation = z
  .object({
    id: Uuid,
    accountId: Uuid,
    cardId: Uuid,
    status: z.enum(AUTHORISATION_STATUSES),
    amount: Decimal,
    currency: z.string(),
    merchantAmount: Decimal,
    merchantCurrency: z.string(),
    exchangeRate: Decimal,
    merchant: Merchant,
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .openapi('Authorisation');

const Fee = z.object({ type: z.enum(['partner', 'service', 'network']), tokenAmount: Decimal }).openapi('Fee');
const ChainTransaction = z.object({ chainId: z.string(), createdAt: DateTime }).openapi('ChainTransaction');

const Transaction = z
  .object({
    id: Uuid,
    accountId: Uuid,
    cardId: Uuid.optional(),
    authorisationId: Uuid.optional(),
    status: z.enum(TRANSACTION_STATUSES),
    direction: z.enum(TRANSACTION_DIRECTIONS),
    amount: Decimal,
    currency: z.string(),
    merchantAmount: Decimal,
    merchantCurrency: z.string(),
    exchangeRate: Decimal,
    merchant: Merchant,
    tokenAmount: Decimal,
    token: z.string().openapi({ description: 'CAIP-19 asset id' }),
    fees: z.array(Fee),
    chainTransactions: z.array(ChainTransaction),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .openapi('Transaction');

export function transactionRoutes(api: Api, { services: { authorisations, transactions } }: Deps): void {
  api.openapi(
    createRoute({
      method: 'get', path: '/accounts/{accountId}/transactions', tags: ['Transactions'], operationId: 'getAccountTransactions',
      request: { params: idParam('accountId') },
      responses: { 200: jsonResponse(z.array(Transaction)), ...standardProblems, 404: problem('Account not found') },
    }),
    (c) => c.json(transactions.forAccount(c.req.valid('param').accountId), 200),
  );

  api.openapi(
    createRoute({
      method: 'get', path: '/cards/{cardId}/transactions', tags: ['Transactions'], operationId: 'getCardTransactions',
      request: { params: idParam('cardId') },
      responses: { 200: jsonResponse(z.array(Transaction)), ...standardProblems, 404: problem('Card not found') },
    }),
    (c) => c.json(transactions.forCard(c.req.valid('param').cardId), 200),
  );

  api.openapi(
    createRoute({
      method: 'get', path: '/transactions/{transactionId}', tags: ['Transactions'], operationId: 'getTransactionDetails',
      request: { params: idParam('transactionId') },
      responses: { 200: jsonResponse(Transaction), ...standardProblems, 404: problem('Transaction not found') },
    }),
    (c) => c.json(transactions.get(c.req.valid('param').transactionId), 200),
  );

  api.openapi(
    createRoute({
      method: 'get', path: '/authorisations/{authorisationId}', tags: ['Authorisations'], operationId: 'getAuthorisationDetails',
      request: { params: idParam('authorisationId') },
      responses: { 200: jsonResponse(Authorisation), ...standardProblems, 404: problem('Authorisation not found') },
    }),
    (c) => c.json(authorisations.get(c.req.valid('param').authorisationId), 200),
  );
}
