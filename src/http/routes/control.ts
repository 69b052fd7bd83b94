/**
 * The emulator's own control plane, /_sandbox/* (CONTRACT §9). It lives apart from /v1: no
 * token, signature or idempotency key; it calls the same services.
 */
import { Hono } from 'hono';
import { iso } from '../../clock.js';
import type { Deps } from '../../deps.js';
import { version } from '../../version.js';
import type { AppEnv } from '../env.js';

export function controlRoutes(deps: Deps): Hono<AppEnv> {
  const { config, clock } = deps;
  const control = new Hono<AppEnv>();

  control.get('/health', (c) => c.json({ status: 'ok', version: version(), env: config.env, verify: config.verify, clock: iso(clock.now()) }));

  control.get('/clock', (c) => c.json({ now: iso(clock.now()), frozen: clock.frozen }));

  return control;
}
