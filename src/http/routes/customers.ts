/**
 * /v1/customers: create (with an ownership challenge), list, read, the challenge and its
 * signature, deactivate and activate (docs/api.md: Customers, accounts and cards).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../deps.js';
import { OwnerChallenge, OwnerSignature } from '../../wire/challenge.js';
import { Customer, newCustomer } from '../../wire/customer.js';
import { servicesOf, type Api } from '../env.js';
import { idParam, jsonBody, jsonResponse, problem, standardProblems } from '../schemas.js';
import { answer } from '../answer.js';

const CustomerWithChallenge = z.intersection(Customer, OwnerChallenge);

const params = { params: idParam('customerId') };
const notFound = { 404: problem('Customer not found') };
const noContent = { 204: { description: 'Successful operation' } };
const tags = ['Customers'];

const TOGGLES = {
  deactivate: 'Suspend an active customer, with their active accounts and cards',
  activate: 'Make an inactive customer active again, with the accounts and cards their suspension took down',
};

export function customerRoutes(api: Api, deps: Deps): void {
  const { engine } = deps.shared;

  const NewCustomer = newCustomer(engine.chains().map((c) => c.id));

  api.openapi(
    createRoute({
      method: 'post',
      path: '/customers',
      tags,
      operationId: 'createCustomer',
      summary: 'Start onboarding a customer from their wallet: initiating, with a challenge for the wallet to sign',
      request: { body: jsonBody(NewCustomer) },
      responses: { 201: jsonResponse(CustomerWithChallenge), ...standardProblems, 409: problem('Customer already exists') },
    }),
    (c) => answer(c, servicesOf(c).customers.create(c.req.valid('json')), 201),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/customers',
      tags,
      operationId: 'getCustomers',
      summary: "The programme's customers",
      responses: { 200: jsonResponse(z.array(Customer)), ...standardProblems },
    }),
    (c) => answer(c, servicesOf(c).customers.list(), 200),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/customers/{customerId}',
      tags,
      operationId: 'getCustomer',
      summary: 'One customer, by id',
      request: params,
      responses: { 200: jsonResponse(Customer), ...standardProblems, ...notFound },
    }),
    (c) => answer(c, servicesOf(c).customers.get(c.req.valid('param').customerId), 200),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/customers/{customerId}/challenge',
      tags,
      operationId: 'getCustomerChallenge',
      summary: "A new challenge for the customer's wallet to sign, in place of the last",
      request: params,
      responses: { 200: jsonResponse(OwnerChallenge), ...standardProblems, ...notFound },
    }),
    (c) => answer(c, servicesOf(c).customers.challenge(c.req.valid('param').customerId), 200),
  );

  api.openapi(
    createRoute({
      method: 'post',
      path: '/customers/{customerId}/challenge/sign',
      tags,
      operationId: 'signCustomerChallenge',
      summary: 'Prove the customer holds the wallet with its signature of the challenge: KYC follows',
      request: { ...params, body: jsonBody(OwnerSignature) },
      responses: { ...noContent, ...standardProblems, ...notFound, 409: problem('Challenge already signed') },
    }),
    (c) => {
      servicesOf(c).customers.signChallenge(c.req.valid('param').customerId, c.req.valid('json'));
      return c.body(null, 204);
    },
  );

  for (const action of ['deactivate', 'activate'] as const) {
    api.openapi(
      createRoute({
        method: 'patch',
        path: `/customers/{customerId}/${action}`,
        tags,
        operationId: `${action}Customer`,
        summary: TOGGLES[action],
        request: params,
        responses: { 200: jsonResponse(Customer), ...standardProblems, ...notFound, 409: problem('Invalid state transition') },
      }),
      (c) => answer(c, servicesOf(c).customers[action](c.req.valid('param').customerId), 200),
    );
  }
}
