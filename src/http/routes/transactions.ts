/** The reference's Transactions tag: one transaction, and the transactions of an account or a card, oldest first. */
import { createRoute, z } from '@hono/zod-openapi';
import { Transaction } from '../../wire/payment.js';
import { servicesOf, type Api } from '../env.js';
import { idParam, jsonResponse, problem, standardProblems } from '../schemas.js';
import { answer } from '../answer.js';

const tags = ['Transactions'];

export function transactionRoutes(api: Api): void {
  api.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{accountId}/transactions',
      tags,
      operationId: 'getAccountTransactions',
      summary: 'The transactions of one account',
      request: { params: idParam('accountId') },
      responses: { 200: jsonResponse(z.array(Transaction)), ...standardProblems, 404: problem('Account not found') },
    }),
    (c) => answer(c, servicesOf(c).transactions.forAccount(c.req.valid('param').accountId), 200),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/cards/{cardId}/transactions',
      tags,
      operationId: 'getCardTransactions',
      summary: 'The transactions made with one card',
      request: { params: idParam('cardId') },
      responses: { 200: jsonResponse(z.array(Transaction)), ...standardProblems, 404: problem('Card not found') },
    }),
    (c) => answer(c, servicesOf(c).transactions.forCard(c.req.valid('param').cardId), 200),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/transactions/{transactionId}',
      tags,
      operationId: 'getTransactionDetails',
      summary: 'One transaction, by id',
      request: { params: idParam('transactionId') },
      responses: { 200: jsonResponse(Transaction), ...standardProblems, 404: problem('Transaction not found') },
    }),
    (c) => answer(c, servicesOf(c).transactions.get(c.req.valid('param').transactionId), 200),
  );
}
