/**
 * What GET /_sandbox/openapi.json says beyond each route's own declaration (docs/control-api.md:
 * The control plane's contract): the programme a request acts on, named by the `Sandbox-Programme`
 * header or `?programme=` with the pattern the middleware checks, and the statuses the control
 * plane's pipeline may answer on any operation. Declared once here, from the same rules the
 * middleware follows, for the routes declared with `controlRoute()` and the mirrors alike.
 */
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import { PROGRAMME_ID } from '../domain/programme.js';
import { ANSWER_HEADERS, FORBIDDEN, withHeaders } from './openapi.js';
import { problem } from './schemas.js';

type OpenAPIRegistry = OpenAPIHono['openAPIRegistry'];

const programme = {
  description: 'The programme the request acts on: "default" or a programme id; the default one when neither names one',
  schema: { type: 'string', pattern: PROGRAMME_ID.source },
} as const;

/** The two ways of naming the programme (middleware/programme.ts), as parameter components; both, naming different programmes, are a 400. */
const PARAMETERS = {
  SandboxProgramme: { in: 'header', name: 'Sandbox-Programme', required: false, ...programme },
  ProgrammeQuery: { in: 'query', name: 'programme', required: false, ...programme },
} as const;

export const PROGRAMME_PARAMETERS = Object.keys(PARAMETERS).map((id) => ({ $ref: `#/components/parameters/${id}` }));

export function registerProgrammeParameters(registry: OpenAPIRegistry): void {
  for (const [id, parameter] of Object.entries(PARAMETERS)) registry.registerComponent('parameters', id, parameter);
}

const actsOnProgramme = (route: RouteConfig) => (route.parameters ?? []).some((p) => '$ref' in p && p.$ref === PROGRAMME_PARAMETERS[0]!.$ref);

/** Declares the programme parameters on every route of `registry`: a mirror of /v1 routes, which acts on the programme as the rest. */
export function declareProgramme(registry: OpenAPIRegistry): void {
  for (const definition of registry.definitions) {
    if (definition.type !== 'route' || actsOnProgramme(definition.route)) continue;
    definition.route.parameters = [...PROGRAMME_PARAMETERS, ...(definition.route.parameters ?? [])] as RouteConfig['parameters'];
  }
}

/**
 * Declares on every control route what the pipeline may answer on its own: 403 (middleware/same-site.ts),
 * 500, 413 for a body over the limit on any method but GET (middleware/body.ts), and, where the
 * route acts on a programme, 404 for a programme id that names none; and the `Request-Id` every answer carries. Call it once every route is
 * added and before the control plane is mounted, which copies the routes.
 */
export function declareControlPipeline(registry: OpenAPIRegistry): void {
  for (const definition of registry.definitions) {
    if (definition.type !== 'route') continue;
    const { route } = definition;
    const responses = { ...route.responses };
    responses[403] ??= FORBIDDEN;
    responses[500] ??= problem('Internal error');
    if (route.method !== 'get') responses[413] ??= problem('Body too large');
    if (actsOnProgramme(route)) {
      const noProgramme = 'No programme with the id Sandbox-Programme or ?programme= names';
      const declared = responses[404] as { description?: string } | undefined;
      responses[404] = declared ? { ...declared, description: `${declared.description}; or: ${noProgramme}` } : problem(noProgramme);
    }
    route.responses = withHeaders(responses, ANSWER_HEADERS);
  }
}
