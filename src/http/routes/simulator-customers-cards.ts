/**
 * The customer and card operations of the simulator: verify or reject a customer's KYC, issue or
 * fail a card (docs/api.md: Customers, accounts and cards). Self-contained so that the control plane can mount the same function
 * on /_sandbox as the simulator mirror; the production environment has no simulator, so nothing is
 * registered there.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.js';
import type { Services } from '../../services/index.js';
import { servicesOf, type Api } from '../env.js';
import { idParam, problem, standardProblems } from '../schemas.js';

const accepted = { 202: { description: 'Accepted' } };
const tags = ['Simulator'];

export function simulatorCustomerCardRoutes(api: Api, deps: Deps): void {
  if (deps.config.env === 'production') return;
  const operations = [
    {
      path: '/simulator/customers/{customerId}/verify',
      operationId: 'simulateVerifyCustomer',
      summary: 'Simulator: the customer passes KYC and becomes active',
      id: 'customerId',
      run: (s: Services, id: string) => s.customers.verify(id),
    },
    {
      path: '/simulator/customers/{customerId}/reject',
      operationId: 'simulateRejectCustomer',
      summary: 'Simulator: the customer fails KYC',
      id: 'customerId',
      run: (s: Services, id: string) => s.customers.reject(id),
    },
    {
      path: '/simulator/cards/{cardId}/issue',
      operationId: 'simulateIssueCard',
      summary: 'Simulator: the issuer issues the card, with its name, network, masked PAN and expiry',
      id: 'cardId',
      run: (s: Services, id: string) => s.cards.issue(id),
    },
    {
      path: '/simulator/cards/{cardId}/fail',
      operationId: 'simulateCardFail',
      summary: 'Simulator: the issuer does not issue the card',
      id: 'cardId',
      run: (s: Services, id: string) => s.cards.fail(id),
    },
  ] as const;

  for (const { path, operationId, summary, id, run } of operations) {
    api.openapi(
      createRoute({
        method: 'patch',
        path,
        tags,
        operationId,
        summary,
        request: { params: idParam(id) },
        responses: { ...accepted, ...standardProblems, 404: problem(id === 'cardId' ? 'Card not found' : 'Customer not found') },
      }),
      (c) => {
        run(servicesOf(c), (c.req.valid('param') as Record<string, string>)[id]!);
        return c.body(null, 202);
      },
    );
  }
}
