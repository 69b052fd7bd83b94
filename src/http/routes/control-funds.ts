/**
 * An account's funds (docs/money-path.md: Funds): GET and PUT
 * /_sandbox/simulator/accounts/{accountId}/balance. Absent with --env production, as the simulator is.
 */
import type { Deps } from '../../deps.js';
import { BalanceInput, Funds } from '../../wire/funds.js';
import { answer } from '../answer.js';
import { controlRoute } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { servicesOf } from '../env.js';
import { idParam, jsonResponse, problem } from '../schemas.js';

export function controlFundsRoutes(control: ControlPlane, deps: Deps): void {
  if (deps.config.env === 'production') return;
  const route = { path: '/simulator/accounts/{accountId}/balance', tags: ['Simulator'] as [string], params: idParam('accountId') };
  controlRoute(
    control,
    {
      ...route,
      method: 'get',
      operationId: 'getBalance',
      summary: "An account's balance, what its pending authorisations hold and what is available, in its currency",
      responses: { 200: jsonResponse(Funds), 404: problem('Account not found') },
    },
    (c, { params }) => answer(c, servicesOf(c).funds.get(params.accountId)),
  );
  controlRoute(
    control,
    {
      ...route,
      method: 'put',
      operationId: 'setBalance',
      summary: "Set an account's balance; what is held stays held",
      body: BalanceInput,
      responses: { 200: jsonResponse(Funds), 404: problem('Account not found') },
    },
    (c, { params, body }) => answer(c, servicesOf(c).funds.set(params.accountId, body.amount)),
  );
}
