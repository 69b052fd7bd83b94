/**
 * The emulator's own control plane, /_sandbox/* (README: Time travel and the control plane). It lives apart from /v1: no
 * token, signature or idempotency key (only the optional --admin-token); it calls the same
 * services.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { iso } from '../../clock.js';
import type { Deps } from '../../deps.js';
import { version } from '../../version.js';
import type { AppEnv } from '../env.js';
import { requireAdminToken } from '../middleware/admin.js';
import { readBody } from '../middleware/body.js';
import { controlEventRoutes } from './control-events.js';
import { jsonOf, parse } from './control-input.js';
import { controlSeedRoutes } from './control-seed.js';

const Advance = z.object({ by: z.string().optional(), to: z.string().optional() });

export interface ControlOptions {
  /** The body size limit, shared with the API. */
  maxBodyBytes: number;
  /** The simulator's routes, mounted as /_sandbox/simulator/* (empty in production). */
  simulator: Hono<AppEnv>;
}

export function controlRoutes(deps: Deps, { maxBodyBytes, simulator }: ControlOptions): Hono<AppEnv> {
  const { config, clock, services, journal } = deps;
  const control = new Hono<AppEnv>();
  control.use('*', requireAdminToken(config.adminToken));
  control.use('*', ...readBody(maxBodyBytes));

  control.get('/health', (c) => c.json({ status: 'ok', version: version(), env: config.env, verify: config.verify, clock: iso(clock.now()) }));

  control.get('/clock', (c) => c.json({ now: iso(clock.now()), frozen: clock.frozen }));

  control.post('/clock/advance', async (c) => {
    const { now, ran } = await services.sandbox.advance(parse(Advance, jsonOf(c), 'body'));
    return c.json({ now: iso(now), ran });
  });

  control.route('/events', controlEventRoutes(deps));

  control.get('/requests', (c) => c.json(journal.list()));

  controlSeedRoutes(control, deps);

  control.post('/reset', (c) => {
    const wiped = services.sandbox.reset();
    const requests = journal.list().length;
    journal.clear();
    return c.json({ wiped: { ...wiped, requests } });
  });

  control.route('/', simulator);

  return control;
}
