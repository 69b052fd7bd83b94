/**
 * /v1's routes in three groups, each with the middleware it meets attached to every route declared
 * on it (route-group.ts), after the body every /v1 request has read once (app.ts):
 * - `token`: POST /auth/token, whose credentials are in the body; nothing else is asked;
 * - `auth`: the rest of /auth, behind a bearer token and the API fault lab, but never a signature,
 *   digest or idempotency key (docs/signatures.md: Authentication, signatures and idempotency);
 * - `operations`: every other operation, behind the token, the fault lab, request verification
 *   and idempotency.
 * A route added to a group meets what the group says, whatever else is added before or after it.
 */
import type { Deps } from '../deps.js';
import type { Api } from './env.js';
import { errorFunnel } from './errors.js';
import { apiFaults } from './middleware/api-faults.js';
import { authenticate } from './middleware/auth.js';
import { idempotentRequests } from './middleware/idempotency.js';
import { verifyRequests } from './middleware/verify.js';
import { pipeline } from './pipeline.js';
import { routeGroup } from './route-group.js';

export interface ApiGroups {
  token: Api;
  auth: Api;
  operations: Api;
}

/** `operationOf` names the operation a request is for, for the API fault lab's rules that match one. */
export function apiGroups({ programmes, config, clock, log }: Deps, operationOf: (method: string, path: string) => string | undefined): ApiGroups {
  // Each group's checks are one layer of the route's chain, each check run only where a request needs it (pipeline.ts).
  const onError = errorFunnel(log, programmes);
  const signedIn = [authenticate(programmes), apiFaults(config.env, operationOf)];
  const verified = config.verify === 'off' ? [] : [verifyRequests(config.verify, clock.wall, log)];
  return {
    token: routeGroup([]),
    auth: routeGroup([pipeline(signedIn, onError)]),
    operations: routeGroup([pipeline([...signedIn, ...verified, idempotentRequests()], onError)]),
  };
}
