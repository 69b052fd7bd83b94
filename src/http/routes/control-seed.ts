/** POST /_sandbox/seed: loads a seed world document (wire/seed.ts) through the services (README: Seed worlds). */
import type { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { parseSeedDocument } from '../../wire/seed.js';
import type { AppEnv } from '../env.js';
import { jsonOf } from './control-input.js';

export function controlSeedRoutes(control: Hono<AppEnv>, { services }: Deps): void {
  control.post('/seed', (c) => c.json(services.sandbox.seed(parseSeedDocument(jsonOf(c))), 201));
}
