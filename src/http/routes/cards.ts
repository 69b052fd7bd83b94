/**
 * /v1/cards and /v1/accounts/{id}/cards: create, list, read, deactivate, activate and terminate
 * (CONTRACT §7 Card).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { isCountryCode } from '../../domain/address.js';
import { CARD_STATUSES, CARD_TYPES } from '../../domain/card.js';
import type { Deps } from '../../deps.js';
import type { Api } from '../env.js';
import { idParam, jsonBody, jsonResponse, problem, standardProblems, Uuid } from '../schemas.js';
import { DateTime } from './customers.js';

const line = z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(255, 'must be at most 255 characters');

export const Address = z
  .object({
    firstLine: line,
    secondLine: line.optional(),
    city: line,
    state: line.optional(),
    country: z.string({ error: 'must be a string' }).refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code such as GB'),
    postCode: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(32, 'must be at most 32 characters'),
  }, { error: 'must be an address object' })
  .openapi('Address');

export const Card = z
  .object({
    id: Uuid,
    accountId: Uuid,
    type: z.enum(CARD_TYPES),
    name: z.string().optional(),
    network: z.enum(['visa', 'mastercard']).optional(),
    maskedPan: z.string().optional(),
    expirationDate: z.string().optional().openapi({ description: 'MM/YYYY' }),
    billingAddress: Address,
    status: z.enum(CARD_STATUSES),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .openapi('Card');

const NewCard = z.object({
  type: z.enum(CARD_TYPES, { error: `must be ${CARD_TYPES.join(' or ')}` }),
  billingAddress: Address,
  shippingAddress: Address.optional().openapi({ description: 'Required for physical cards' }),
});

const params = { params: idParam('cardId') };
const notFound = { 404: problem('Card not found') };
const conflict = { 409: problem('Invalid state transition') };
const tags = ['Cards'];

export function cardRoutes(api: Api, deps: Deps): void {
  const { cards } = deps.services;

  api.openapi(
    createRoute({
      method: 'post', path: '/accounts/{accountId}/cards', tags, operationId: 'createAccountCard',
      request: { params: idParam('accountId'), body: jsonBody(NewCard) },
      responses: { 201: jsonResponse(Card), ...standardProblems, 404: problem('Account not found') },
    }),
    (c) => c.json(cards.create(c.req.valid('param').accountId, c.req.valid('json')), 201),
  );

  api.openapi(
    createRoute({
      method: 'get', path: '/accounts/{accountId}/cards', tags, operationId: 'getAccountCards',
      request: { params: idParam('accountId') },
      responses: { 200: jsonResponse(z.array(Card)), ...standardProblems, 404: problem('Account not found') },
    }),
    (c) => c.json(cards.listForAccount(c.req.valid('param').accountId), 200),
  );

  api.openapi(
    createRoute({ method: 'get', path: '/cards', tags, operationId: 'getCards', responses: { 200: jsonResponse(z.array(Card)), ...standardProblems } }),
    (c) => c.json(cards.list(), 200),
  );

  api.openapi(
    createRoute({ method: 'get', path: '/cards/{cardId}', tags, operationId: 'getCard', request: params, responses: { 200: jsonResponse(Card), ...standardProblems, ...notFound } }),
    (c) => c.json(cards.get(c.req.valid('param').cardId), 200),
  );

  api.openapi(
    createRoute({
      method: 'delete', path: '/cards/{cardId}', tags, operationId: 'deleteCard', request: params,
      responses: { 204: { description: 'Successful operation' }, ...standardProblems, ...notFound, ...conflict },
    }),
    (c) => {
      cards.terminate(c.req.valid('param').cardId);
      return c.body(null, 204);
    },
  );

  for (const action of ['deactivate', 'activate'] as const) {
    api.openapi(
      createRoute({
        method: 'patch', path: `/cards/{cardId}/${action}`, tags, operationId: `${action}Card`, request: params,
        responses: { 200: jsonResponse(Card), ...standardProblems, ...notFound, ...conflict },
      }),
      (c) => c.json(cards[action](c.req.valid('param').cardId), 200),
    );
  }
}
