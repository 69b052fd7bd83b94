/**
 * A request whose programme was deleted while it was under way: whatever it then failed on (a
 * write refused for want of its programme's row, as a rule), the answer is the one the request
 * would get if it came now — 401 on /v1 (its token names no programme), 404 `programme_not_found`
 * on the control plane — never a 500 (docs/programmes.md: Parallel test suites).
 */
import type { Context } from 'hono';
import { SandboxError } from '../domain/errors.js';
import type { Programmes } from '../programmes/index.js';
import type { AppEnv } from './env.js';

export function deletedMeanwhile(c: Context<AppEnv>, programmes: Pick<Programmes, 'rowOf'>): SandboxError | undefined {
  const programme = c.get('programme') as AppEnv['Variables']['programme'] | undefined;
  if (programme === undefined || programmes.rowOf(programme.id) !== undefined) return undefined;
  const what = `programme ${programme.id} was deleted while this request was under way`;
  return c.req.path.startsWith('/v1')
    ? new SandboxError('not_authorised', `${what}: its tokens are no longer good`)
    : new SandboxError('programme_not_found', `${what}; nothing more of it is kept`);
}
