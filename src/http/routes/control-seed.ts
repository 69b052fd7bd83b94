/** POST /_sandbox/seed: loads a seed world document (wire/seed.ts) through the services (docs/control-plane.md: Seed worlds). */
import type { Deps } from '../../deps.js';
import { parseSeedDocument, seedDocument, SeedResult } from '../../wire/seed.js';
import { controlRoute } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { servicesOf } from '../env.js';
import { jsonResponse } from '../schemas.js';
import { answer } from '../answer.js';

export function controlSeedRoutes(control: ControlPlane, { shared }: Deps): void {
  // The engine's chains and the money tables: the schema says which chainIds, currencies and amounts it takes.
  const SeedDocument = seedDocument({ chains: shared.engine.chains().map((c) => c.id), money: shared.money });
  controlRoute(
    control,
    {
      method: 'post',
      path: '/seed',
      operationId: 'seedWorld',
      summary: 'Create the customers, accounts, cards and subscriptions a seed document describes',
      tags: ['World'],
      body: SeedDocument,
      readBody: (value) => parseSeedDocument(value, SeedDocument),
      responses: { 201: jsonResponse(SeedResult) },
    },
    (c, { body }) => answer(c, servicesOf(c).sandbox.seed(body), 201),
  );
}
