/**
 * The API fault lab on the control plane (README: The API fault lab): the rules of the programme
 * the request names — set them (every rule checked before any is kept), show them with what each
 * has left, clear them.
 */
import type { Context, Hono } from 'hono';
import { ApiFaultsBody } from '../../domain/api-faults.js';
import { servicesOf, type AppEnv } from '../env.js';
import { jsonOf, parse } from './control-input.js';

export function controlApiFaultRoutes(control: Hono<AppEnv>): void {
  const lab = (c: Context<AppEnv>) => servicesOf(c).apiFaults;
  control.get('/api/faults', (c) => c.json(lab(c).view()));
  control.put('/api/faults', (c) => c.json(lab(c).set(parse(ApiFaultsBody, jsonOf(c), 'body'))));
  control.delete('/api/faults', (c) => {
    lab(c).clear();
    return c.body(null, 204);
  });
}
