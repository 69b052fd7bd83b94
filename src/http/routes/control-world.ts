/**
 * /_sandbox/world (docs/control-plane.md: Time travel and the control plane): the programme's customers,
 * accounts, cards, authorisations and transactions as one tree, its webhook subscriptions, and how
 * many there are of each — what the inspector's World and Overview show.
 */
import { World, WorldCounts } from '../../wire/world.js';
import { controlRoute } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { servicesOf } from '../env.js';
import { jsonResponse } from '../schemas.js';
import { answer } from '../answer.js';

const tags: [string] = ['World'];

export function controlWorldRoutes(control: ControlPlane): void {
  controlRoute(
    control,
    {
      method: 'get',
      path: '/world',
      operationId: 'getWorld',
      summary: 'Every resource as one tree, and the webhook subscriptions',
      tags,
      responses: { 200: jsonResponse(World) },
    },
    (c) => answer(c, servicesOf(c).world.tree()),
  );
  controlRoute(
    control,
    {
      method: 'get',
      path: '/world/counts',
      operationId: 'getWorldCounts',
      summary: 'How many there are of each resource, and deliveries by state',
      tags,
      responses: { 200: jsonResponse(WorldCounts) },
    },
    (c) => answer(c, servicesOf(c).world.counts()),
  );
}
