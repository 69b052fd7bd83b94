/**
 * The API fault lab on the control plane (docs/api-faults.md: The API fault lab): the rules of the programme
 * the request names — set them (every rule checked, against the schema and against the operations
 * it could meet, before any is kept), show them with what each has left, clear them.
 */
import { ApiFaultsBody, type ApiFaultRule } from '../../domain/api-faults.js';
import type { FieldError } from '../../domain/errors.js';
import { ApiFaultsView } from '../../wire/api-faults.js';
import { controlRoute, noContent } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { servicesOf } from '../env.js';
import { invalidFields } from '../errors.js';
import { jsonResponse } from '../schemas.js';
import { answer } from '../answer.js';

const tags: [string] = ['API fault lab'];

export function controlApiFaultRoutes(control: ControlPlane, unmetRules: (rules: readonly ApiFaultRule[]) => FieldError[]): void {
  controlRoute(
    control,
    {
      method: 'get',
      path: '/api/faults',
      operationId: 'getApiFaults',
      summary: 'The rules, with what each has left',
      tags,
      responses: { 200: jsonResponse(ApiFaultsView) },
    },
    (c) => answer(c, servicesOf(c).apiFaults.view()),
  );
  controlRoute(
    control,
    {
      method: 'put',
      path: '/api/faults',
      operationId: 'setApiFaults',
      summary: 'Replace the rules (all checked before any is kept)',
      tags,
      body: ApiFaultsBody,
      responses: { 200: jsonResponse(ApiFaultsView) },
    },
    (c, { body }) => {
      const unmet = unmetRules(body.rules);
      if (unmet.length) throw invalidFields(unmet, 'body');
      return answer(c, servicesOf(c).apiFaults.set(body));
    },
  );
  controlRoute(
    control,
    { method: 'delete', path: '/api/faults', operationId: 'clearApiFaults', summary: 'Clear the rules', tags, responses: noContent },
    (c) => {
      servicesOf(c).apiFaults.clear();
      return c.body(null, 204);
    },
  );
}
