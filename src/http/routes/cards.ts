/**
 * /v1/cards and /v1/accounts/{id}/cards: create, list, read, deactivate, activate and terminate
 * (docs/api.md: Customers, accounts and cards).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { Card, NewCard } from '../../wire/card.js';
import { servicesOf, type Api } from '../env.js';
import { idParam, jsonBody, jsonResponse, problem, standardProblems } from '../schemas.js';
import { answer } from '../answer.js';

const params = { params: idParam('cardId') };
const notFound = { 404: problem('Card not found') };
const conflict = { 409: problem('Invalid state transition') };
const tags = ['Cards'];

const TOGGLES = {
  deactivate: 'Freeze an active card: payments on it are declined',
  activate: 'Unfreeze an inactive card',
};

export function cardRoutes(api: Api): void {
  api.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{accountId}/cards',
      tags,
      operationId: 'createAccountCard',
      summary: 'Order a card on an active account: issuing until the issuer answers',
      request: { params: idParam('accountId'), body: jsonBody(NewCard) },
      responses: { 201: jsonResponse(Card), ...standardProblems, 404: problem('Account not found') },
    }),
    (c) => answer(c, servicesOf(c).cards.create(c.req.valid('param').accountId, c.req.valid('json')), 201),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{accountId}/cards',
      tags,
      operationId: 'getAccountCards',
      summary: 'The cards of one account',
      request: { params: idParam('accountId') },
      responses: { 200: jsonResponse(z.array(Card)), ...standardProblems, 404: problem('Account not found') },
    }),
    (c) => answer(c, servicesOf(c).cards.listForAccount(c.req.valid('param').accountId), 200),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/cards',
      tags,
      operationId: 'getCards',
      summary: "The programme's cards",
      responses: { 200: jsonResponse(z.array(Card)), ...standardProblems },
    }),
    (c) => answer(c, servicesOf(c).cards.list(), 200),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/cards/{cardId}',
      tags,
      operationId: 'getCard',
      summary: 'One card, by id',
      request: params,
      responses: { 200: jsonResponse(Card), ...standardProblems, ...notFound },
    }),
    (c) => answer(c, servicesOf(c).cards.get(c.req.valid('param').cardId), 200),
  );

  api.openapi(
    createRoute({
      method: 'delete',
      path: '/cards/{cardId}',
      tags,
      operationId: 'deleteCard',
      summary: 'End a card for good: it never pays again',
      request: params,
      responses: { 204: { description: 'Successful operation' }, ...standardProblems, ...notFound, ...conflict },
    }),
    (c) => {
      servicesOf(c).cards.terminate(c.req.valid('param').cardId);
      return c.body(null, 204);
    },
  );

  for (const action of ['deactivate', 'activate'] as const) {
    api.openapi(
      createRoute({
        method: 'patch',
        path: `/cards/{cardId}/${action}`,
        tags,
        operationId: `${action}Card`,
        summary: TOGGLES[action],
        request: params,
        responses: { 200: jsonResponse(Card), ...standardProblems, ...notFound, ...conflict },
      }),
      (c) => answer(c, servicesOf(c).cards[action](c.req.valid('param').cardId), 200),
    );
  }
}
