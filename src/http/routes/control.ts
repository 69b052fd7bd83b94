/**
 * The emulator's own control plane, /_sandbox/* (docs/control-plane.md: Time travel and the control plane). It lives apart from /v1: no
 * token, signature or idempotency key (only the optional --admin-token); it calls the same
 * services. Every route is declared with its schemas (control-route.ts) and described by
 * GET /_sandbox/openapi.json. The inspector's page is served here too, and is one more client of these routes.
 */
import type { Context } from 'hono';
import { iso } from '../../domain/instant.js';
import type { Config } from '../../config/index.js';
import type { Deps } from '../../deps.js';
import type { ApiFaultRule } from '../../domain/api-faults.js';
import type { DeclaredOperation } from '../../domain/api-fault-matching.js';
import type { FieldError } from '../../domain/errors.js';
import { AdvanceRequest } from '../../domain/time-travel.js';
import { version } from '../../kernel/version.js';
import { Advanced, ClockReading, Health, Wiped } from '../../wire/sandbox.js';
import { declareControlPipeline, registerProgrammeParameters } from '../control-openapi.js';
import { ControlPlane } from '../control-plane.js';
import { controlRoute } from '../control-route.js';
import { servicesOf, type Api, type AppEnv } from '../env.js';
import { jsonResponse } from '../schemas.js';
import { controlApiFaultRoutes } from './control-api-faults.js';
import { controlEventRoutes } from './control-events.js';
import { controlMoneyRoutes } from './control-money.js';
import { controlFundsRoutes } from './control-funds.js';
import { controlProgrammeRoutes } from './control-programmes.js';
import { controlReportRoutes } from './control-report.js';
import { controlRequestRoutes } from './control-requests.js';
import { controlSeedRoutes } from './control-seed.js';
import { controlSnapshotFileRoute, controlSnapshotRoutes } from './control-snapshots.js';
import { controlUiRoutes } from './control-ui.js';
import { controlWebhookRoutes } from './control-webhooks.js';
import { controlWorldRoutes } from './control-world.js';
import { answer } from '../answer.js';

export interface ControlOptions {
  /** The body size limit, shared with the API. */
  maxBodyBytes: number;
  /** Declares the simulator's routes, mounted as /_sandbox/simulator/* (none in production). */
  simulator: (api: Api) => void;
  /** Declares the webhook routes of /v1, mounted as /_sandbox/webhooks/* (docs/webhooks.md: Webhooks → The delivery lab). */
  webhooks: (api: Api) => void;
  /** Every /v1 operation, for the go-live report's coverage. */
  operations: readonly DeclaredOperation[];
  /** Why API fault rules could meet no request (empty when every one can). */
  unmetApiFaults: (rules: readonly ApiFaultRule[]) => FieldError[];
}

/** The document of GET /_sandbox/openapi.json, but for its paths, which are below /_sandbox. */
export const CONTROL_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'card-sandbox control plane',
    version: version(),
    description:
      "The sandbox's own routes: clock, programmes, events, deliveries and their faults, the request journal, the world, seeds, snapshots, API faults, the go-live report",
  },
  security: [{}, { adminToken: [] as string[] }] as Record<string, string[]>[],
};

/**
 * Every route of the control plane. What each meets (the admin token, its body, its programme) is
 * its declaration's (control-route.ts), wherever it is added; the order below is the document's,
 * and where two paths overlap the one added first answers (as Hono matches).
 */
export function controlRoutes(deps: Deps, { maxBodyBytes, simulator, webhooks, operations, unmetApiFaults }: ControlOptions): ControlPlane {
  const { config, programmes } = deps;
  const control = new ControlPlane({ adminToken: config.adminToken, programmes, maxBodyBytes });
  control.openAPIRegistry.registerComponent('securitySchemes', 'adminToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The --admin-token the sandbox was started with, when it was',
  });
  registerProgrammeParameters(control.openAPIRegistry);
  controlUiRoutes(control);
  controlSnapshotFileRoute(control, deps);
  controlProgrammeRoutes(control, deps);
  clockRoutes(control, config);
  controlEventRoutes(control);
  controlRequestRoutes(control);
  controlWorldRoutes(control);
  controlWebhookRoutes(control);
  controlApiFaultRoutes(control, unmetApiFaults);
  controlReportRoutes(control, deps, operations);
  control.mirror(webhooks);
  controlSeedRoutes(control, deps);
  controlSnapshotRoutes(control, deps);
  controlMoneyRoutes(control, deps);
  controlFundsRoutes(control, deps);
  control.mirror(simulator);
  // What the pipeline may answer on its own, declared on every route once all are added.
  declareControlPipeline(control.openAPIRegistry);
  return control;
}

/** Health, the clock and reset: the programme as a whole. */
function clockRoutes(control: ControlPlane, config: Config): void {
  const tags: [string] = ['Clock'];
  const clockOf = (c: Context<AppEnv>) => c.get('programme').core.clock;
  controlRoute(
    control,
    {
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      summary: "The sandbox's version and settings, and the programme's time",
      tags,
      responses: { 200: jsonResponse(Health) },
    },
    (c) => answer(c, { status: 'ok', version: version(), env: config.env, verify: config.verify, clock: iso(clockOf(c).now()) } satisfies Health),
  );
  controlRoute(
    control,
    {
      method: 'get',
      path: '/clock',
      operationId: 'getClock',
      summary: "The programme's sandbox time, and whether it is frozen",
      tags,
      responses: { 200: jsonResponse(ClockReading) },
    },
    (c) => {
      const advancing = servicesOf(c).scheduler.advancing();
      return answer(c, {
        now: iso(clockOf(c).now()),
        frozen: clockOf(c).frozen,
        ...(advancing && { advancing: { to: iso(advancing.to), ran: advancing.ran } }),
      } satisfies ClockReading);
    },
  );
  controlRoute(
    control,
    {
      method: 'post',
      path: '/clock/advance',
      operationId: 'advanceClock',
      summary: 'Move the clock forward, running every job that falls due on the way',
      tags,
      body: AdvanceRequest,
      responses: { 200: jsonResponse(Advanced) },
    },
    async (c, { body }) => {
      const { now, ran } = await servicesOf(c).sandbox.advance(body);
      return answer(c, { now: iso(now), ran });
    },
  );
  controlRoute(
    control,
    {
      method: 'post',
      path: '/reset',
      operationId: 'reset',
      summary: "Wipe the programme's world, outbox, idempotency keys and request journal",
      tags,
      responses: { 200: jsonResponse(Wiped) },
    },
    (c) => {
      const { services, journal } = c.get('programme');
      const wiped = services.sandbox.reset();
      const requests = journal.list().length;
      journal.clear();
      return answer(c, { wiped: { ...wiped, requests } });
    },
  );
}
