/**
 * /_sandbox/world (docs/control-plane.md: Time travel and the control plane): the programme's customers,
 * accounts, cards, authorisations and transactions as one tree, its webhook subscriptions, and how
 * many there are of each — what the inspector's World and Overview show.
 */
import { Hono } from 'hono';
import { servicesOf, type AppEnv } from '../env.js';

export function controlWorldRoutes(): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', (c) => c.json(servicesOf(c).world.tree()));
  routes.get('/counts', (c) => c.json(servicesOf(c).world.counts()));
  return routes;
}
