/**
 * /v1/accounts and /v1/customers/{id}/accounts: create (with a deployment challenge), list,
 * read, the challenge and its signature, deactivate, activate and close (docs/api.md: Customers, accounts and cards).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { Account, NewAccount } from '../../wire/account.js';
import { OwnerChallenge, OwnerSignature } from '../../wire/challenge.js';
import { servicesOf, type Api } from '../env.js';
import { idParam, jsonBody, jsonResponse, problem, standardProblems } from '../schemas.js';
import { answer } from '../answer.js';

const params = { params: idParam('accountId') };
const notFound = { 404: problem('Account not found') };
const conflict = { 409: problem('Invalid state transition') };
const noContent = { 204: { description: 'Successful operation' } };
const tags = ['Accounts'];

const TOGGLES = {
  deactivate: 'Suspend an active account, with its active cards',
  activate: 'Make an inactive account active again, with the cards its suspension took down',
};

export function accountRoutes(api: Api): void {
  api.openapi(
    createRoute({
      method: 'post',
      path: '/customers/{customerId}/accounts',
      tags,
      operationId: 'createCustomerAccount',
      summary: 'Open a smart-contract account for an active customer, with a challenge for the wallet to sign',
      request: { params: idParam('customerId'), body: jsonBody(NewAccount) },
      responses: { 201: jsonResponse(z.intersection(Account, OwnerChallenge)), ...standardProblems, 404: problem('Customer not found') },
    }),
    (c) => answer(c, servicesOf(c).accounts.create(c.req.valid('param').customerId, c.req.valid('json')), 201),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/customers/{customerId}/accounts',
      tags,
      operationId: 'getCustomerAccounts',
      summary: 'The accounts of one customer',
      request: { params: idParam('customerId') },
      responses: { 200: jsonResponse(z.array(Account)), ...standardProblems, 404: problem('Customer not found') },
    }),
    (c) => answer(c, servicesOf(c).accounts.listForCustomer(c.req.valid('param').customerId), 200),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/accounts',
      tags,
      operationId: 'getAccounts',
      summary: "The programme's accounts",
      responses: { 200: jsonResponse(z.array(Account)), ...standardProblems },
    }),
    (c) => answer(c, servicesOf(c).accounts.list(), 200),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{accountId}',
      tags,
      operationId: 'getAccount',
      summary: 'One account, by id',
      request: params,
      responses: { 200: jsonResponse(Account), ...standardProblems, ...notFound },
    }),
    (c) => answer(c, servicesOf(c).accounts.get(c.req.valid('param').accountId), 200),
  );

  api.openapi(
    createRoute({
      method: 'delete',
      path: '/accounts/{accountId}',
      tags,
      operationId: 'closeAccount',
      summary: 'Close an account for good, ending its cards',
      request: params,
      responses: { ...noContent, ...standardProblems, ...notFound, ...conflict },
    }),
    (c) => {
      servicesOf(c).accounts.close(c.req.valid('param').accountId);
      return c.body(null, 204);
    },
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{accountId}/challenge',
      tags,
      operationId: 'getAccountChallenge',
      summary: "A new challenge approving the account, for the customer's wallet to sign, in place of the last",
      request: params,
      responses: { 200: jsonResponse(OwnerChallenge), ...standardProblems, ...notFound },
    }),
    (c) => answer(c, servicesOf(c).accounts.challenge(c.req.valid('param').accountId), 200),
  );

  api.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{accountId}/challenge/sign',
      tags,
      operationId: 'signAccountChallenge',
      summary: "Approve the account with the wallet's signature of its challenge: it is deployed, then active",
      request: { ...params, body: jsonBody(OwnerSignature) },
      responses: { ...noContent, ...standardProblems, ...notFound, 409: problem('Challenge already signed') },
    }),
    (c) => {
      servicesOf(c).accounts.signChallenge(c.req.valid('param').accountId, c.req.valid('json'));
      return c.body(null, 204);
    },
  );

  for (const action of ['deactivate', 'activate'] as const) {
    api.openapi(
      createRoute({
        method: 'patch',
        path: `/accounts/{accountId}/${action}`,
        tags,
        operationId: `${action}Account`,
        summary: TOGGLES[action],
        request: params,
        responses: { 200: jsonResponse(Account), ...standardProblems, ...notFound, ...conflict },
      }),
      (c) => answer(c, servicesOf(c).accounts[action](c.req.valid('param').accountId), 200),
    );
  }
}
