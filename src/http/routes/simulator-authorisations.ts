/**
 * The three authorisation operations of the simulator: authorise a card payment, capture or
 * release it by hand (docs/api.md: Authorisations and transactions). Self-contained so that the control plane can
 * mount the same function on /_sandbox as the simulator mirror; the production environment has no
 * simulator, so nothing is registered there.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.js';
import { answer } from '../answer.js';
import { servicesOf, type Api } from '../env.js';
import { idParam, jsonBody, jsonResponse, problem, standardProblems } from '../schemas.js';
import { Authorisation, AuthorisationRequest } from '../../wire/payment.js';

const accepted = { 202: { description: 'Accepted: the authorisation is capturing (or releasing) and completes one second later' } };
const notFound = { 404: problem('Authorisation not found') };
const tags = ['Simulator'];

/**
 * `capture: false` leaves out PATCH …/capture: the control plane declares its own, which takes a
 * partial amount (docs/money-path.md: Partial captures).
 */
export function simulatorAuthorisationRoutes(api: Api, deps: Deps, { capture = true }: { capture?: boolean } = {}): void {
  if (deps.config.env === 'production') return;

  api.openapi(
    createRoute({
      method: 'post',
      path: '/simulator/cards/{cardId}/authorisation',
      tags,
      operationId: 'simulateCardAuthorisation',
      summary: 'Simulator: a merchant asks to hold a payment on the card; captured on its own unless capture is false',
      request: { params: idParam('cardId'), body: jsonBody(AuthorisationRequest(deps.shared.money)) },
      responses: { 201: jsonResponse(Authorisation), ...standardProblems, 404: problem('Card not found') },
    }),
    (c) => answer(c, servicesOf(c).authorisations.authorise(c.req.valid('param').cardId, c.req.valid('json')), 201),
  );

  if (capture)
    api.openapi(
      createRoute({
        method: 'patch',
        path: '/simulator/authorisations/{authorisationId}/capture',
        tags,
        operationId: 'simulateCardAuthorisationCapture',
        summary: 'Simulator: the merchant takes what a pending authorisation holds',
        request: { params: idParam('authorisationId') },
        responses: { ...accepted, ...standardProblems, ...notFound },
      }),
      (c) => {
        servicesOf(c).authorisations.capture(c.req.valid('param').authorisationId);
        return c.body(null, 202);
      },
    );

  api.openapi(
    createRoute({
      method: 'patch',
      path: '/simulator/authorisations/{authorisationId}/release',
      tags,
      operationId: 'simulateCardAuthorisationRelease',
      summary: 'Simulator: the merchant lets a pending authorisation go, and what it held is free again',
      request: { params: idParam('authorisationId') },
      responses: { ...accepted, ...standardProblems, ...notFound },
    }),
    (c) => {
      servicesOf(c).authorisations.release(c.req.valid('param').authorisationId);
      return c.body(null, 202);
    },
  );
}
