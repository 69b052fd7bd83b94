/** POST /_sandbox/seed: loads a seed world document (wire/seed.ts) through the services (docs/control-plane.md: Seed worlds). */
import type { Hono } from 'hono';
import { parseSeedDocument } from '../../wire/seed.js';
import { servicesOf, type AppEnv } from '../env.js';
import { jsonOf } from './control-input.js';

export function controlSeedRoutes(control: Hono<AppEnv>): void {
  control.post('/seed', (c) => c.json(servicesOf(c).sandbox.seed(parseSeedDocument(jsonOf(c))), 201));
}
