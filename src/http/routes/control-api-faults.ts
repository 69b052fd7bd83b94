/**
 * The API fault lab on the control plane (docs/api-faults.md: The API fault lab): the rules of the programme
 * the request names — set them (every rule checked, against the schema and against the operations
 * it could meet, before any is kept), show them with what each has left, clear them.
 */
import type { Context, Hono } from 'hono';
import { ApiFaultsBody, type ApiFaultRule } from '../../domain/api-faults.js';
import type { FieldError } from '../../domain/errors.js';
import { invalidFields } from '../errors.js';
import { servicesOf, type AppEnv } from '../env.js';
import { jsonOf, parse } from './control-input.js';

export function controlApiFaultRoutes(control: Hono<AppEnv>, unmetRules: (rules: readonly ApiFaultRule[]) => FieldError[]): void {
  const lab = (c: Context<AppEnv>) => servicesOf(c).apiFaults;
  control.get('/api/faults', (c) => c.json(lab(c).view()));
  control.put('/api/faults', (c) => {
    const faults = parse(ApiFaultsBody, jsonOf(c), 'body');
    const unmet = unmetRules(faults.rules);
    if (unmet.length) throw invalidFields(unmet, 'body');
    return c.json(lab(c).set(faults));
  });
  control.delete('/api/faults', (c) => {
    lab(c).clear();
    return c.body(null, 204);
  });
}
