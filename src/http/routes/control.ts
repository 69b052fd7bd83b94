/**
 * The emulator's own control plane, /_sandbox/* (README: Time travel and the control plane). It lives apart from /v1: no
 * token, signature or idempotency key (only the optional --admin-token); it calls the same
 * services. The inspector's page is served here too, and is one more client of these routes.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { iso } from '../../clock.js';
import type { Deps } from '../../deps.js';
import { version } from '../../version.js';
import { servicesOf, type AppEnv } from '../env.js';
import { selectProgramme } from '../middleware/programme.js';
import { controlProgrammeRoutes } from './control-programmes.js';
import { requireAdminToken } from '../middleware/admin.js';
import { readBody } from '../middleware/body.js';
import type { ApiFaultRule, DeclaredOperation } from '../../domain/api-faults.js';
import type { FieldError } from '../../domain/errors.js';
import { controlApiFaultRoutes } from './control-api-faults.js';
import { controlReportRoutes } from './control-report.js';
import { controlEventRoutes } from './control-events.js';
import { controlRequestRoutes } from './control-requests.js';
import { controlUiRoutes } from './control-ui.js';
import { controlWorldRoutes } from './control-world.js';
import { jsonOf, parse } from './control-input.js';
import { controlSeedRoutes } from './control-seed.js';
import { controlSnapshotFileRoute, controlSnapshotRoutes } from './control-snapshots.js';
import { controlWebhookRoutes } from './control-webhooks.js';

const Advance = z.object({ by: z.string().optional(), to: z.string().optional() });

/** GET /_sandbox/health: what the CLI's `health` and the inspector read. */
export interface Health {
  status: string;
  version: string;
  env: Deps['config']['env'];
  verify: Deps['config']['verify'];
  /** The programme's sandbox time. */
  clock: string;
}

export interface ControlOptions {
  /** The body size limit, shared with the API. */
  maxBodyBytes: number;
  /** The simulator's routes, mounted as /_sandbox/simulator/* (empty in production). */
  simulator: Hono<AppEnv>;
  /** The webhook routes of /v1, mounted as /_sandbox/webhooks/* (README: Webhooks → The delivery lab). */
  webhooks: Hono<AppEnv>;
  /** Every /v1 operation, for the go-live report's coverage. */
  operations: readonly DeclaredOperation[];
  /** Why each API fault rule that no request can meet is refused (README: The API fault lab). */
  unmetApiFaults: (rules: readonly ApiFaultRule[]) => FieldError[];
}

export function controlRoutes(deps: Deps, { maxBodyBytes, simulator, webhooks, operations, unmetApiFaults }: ControlOptions): Hono<AppEnv> {
  const { config, programmes } = deps;
  const control = new Hono<AppEnv>();
  // The inspector's files come before the admin token: the page asks for it (README: The inspector).
  controlUiRoutes(control);
  control.use('*', requireAdminToken(config.adminToken));
  const programmeOf = selectProgramme(programmes);
  // A snapshot file may be larger than the bodies the control plane takes: its route reads its own.
  controlSnapshotFileRoute(control, deps, programmeOf);
  control.use('*', ...readBody(maxBodyBytes));
  controlProgrammeRoutes(control, deps);
  // Everything below acts on one programme (Hono runs middleware in the order it was added).
  control.use('*', programmeOf);

  const clockOf = (c: Context<AppEnv>) => c.get('programme').core.clock;

  control.get('/health', (c) => c.json({ status: 'ok', version: version(), env: config.env, verify: config.verify, clock: iso(clockOf(c).now()) } satisfies Health));

  control.get('/clock', (c) => c.json({ now: iso(clockOf(c).now()), frozen: clockOf(c).frozen }));

  control.post('/clock/advance', async (c) => {
    const { now, ran } = await servicesOf(c).sandbox.advance(parse(Advance, jsonOf(c), 'body'));
    return c.json({ now: iso(now), ran });
  });

  control.route('/events', controlEventRoutes());

  control.route('/requests', controlRequestRoutes());

  control.route('/world', controlWorldRoutes());

  controlWebhookRoutes(control);
  controlApiFaultRoutes(control, unmetApiFaults);
  controlReportRoutes(control, config, operations);
  control.route('/', webhooks);

  controlSeedRoutes(control);
  controlSnapshotRoutes(control, deps);

  control.post('/reset', (c) => {
    const { services, journal } = c.get('programme');
    const wiped = services.sandbox.reset();
    const requests = journal.list().length;
    journal.clear();
    return c.json({ wiped: { ...wiped, requests } });
  });

  control.route('/', simulator);

  return control;
}
