/** /v1/chains and /v1/assets: what the instance supports (docs/api.md: API behaviour). */
import { createRoute, z } from '@hono/zod-openapi';
import { CHAIN_ID_PATTERN } from '../../domain/caip.js';
import { Asset, Blockchain } from '../../wire/engine.js';
import { servicesOf, type Api } from '../env.js';
import { jsonResponse, standardProblems } from '../schemas.js';
import { answer } from '../answer.js';
const tags = ['Engine'];

export function engineRoutes(api: Api): void {
  api.openapi(
    createRoute({
      method: 'get',
      path: '/chains',
      tags,
      operationId: 'getChains',
      summary: "The blockchains a customer's wallet may be on",
      responses: { 200: jsonResponse(z.array(Blockchain)), ...standardProblems },
    }),
    (c) => answer(c, servicesOf(c).engine.chains(), 200),
  );
  api.openapi(
    createRoute({
      method: 'get',
      path: '/assets',
      tags,
      operationId: 'getAssets',
      summary: 'The tokens an account may hold, chain by chain',
      request: { query: z.object({ chain: z.string().optional().openapi({ description: 'CAIP-2 chain id to filter by', pattern: CHAIN_ID_PATTERN }) }) },
      responses: { 200: jsonResponse(z.array(Asset)), ...standardProblems },
    }),
    (c) => answer(c, servicesOf(c).engine.assets(c.req.valid('query').chain), 200),
  );
}
