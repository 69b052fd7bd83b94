/** The reference's Authorisations tag: one authorisation (the simulator creates them: simulator-authorisations.ts). */
import { createRoute } from '@hono/zod-openapi';
import { Authorisation } from '../../wire/payment.js';
import { servicesOf, type Api } from '../env.js';
import { idParam, jsonResponse, problem, standardProblems } from '../schemas.js';
import { answer } from '../answer.js';

export function authorisationRoutes(api: Api): void {
  api.openapi(
    createRoute({
      method: 'get',
      path: '/authorisations/{authorisationId}',
      tags: ['Authorisations'],
      operationId: 'getAuthorisationDetails',
      summary: 'One authorisation, by id: its amounts, rate, merchant and status',
      request: { params: idParam('authorisationId') },
      responses: { 200: jsonResponse(Authorisation), ...standardProblems, 404: problem('Authorisation not found') },
    }),
    (c) => answer(c, servicesOf(c).authorisations.get(c.req.valid('param').authorisationId), 200),
  );
}
