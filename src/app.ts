/**
 * createApp(deps): the Hono application — middleware, /v1 routes, the /_sandbox control plane,
 * /openapi.json and the one error funnel. It neither listens nor reads the environment.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ApiFaultRule } from './domain/api-faults.js';
import { operationFinder, unmetRules, type DeclaredOperation } from './domain/api-fault-matching.js';
import { ConfigError } from './config/index.js';
import { SandboxError } from './domain/errors.js';
import type { Deps } from './deps.js';
import { answer } from './http/answer.js';
import { apiGroups } from './http/api-groups.js';
import type { Api, AppEnv } from './http/env.js';
import { defaultHook, errorFunnel, problemResponse } from './http/errors.js';
import { readBody } from './http/middleware/body.js';
import { requestContext } from './http/middleware/context.js';
import { sameSite } from './http/middleware/same-site.js';
import { traceRequests } from './http/middleware/tracing.js';
import { declarePipeline, METHOD_NOT_ALLOWED, registerHeaders, registerNamedSchemas, registerWebhooks } from './http/openapi.js';
import { methodNotAllowed, methodsOf, type AllowedMethods } from './http/method-not-allowed.js';
import { RememberingRouter } from './http/router.js';
import { accountRoutes } from './http/routes/accounts.js';
import { authorisationRoutes } from './http/routes/authorisations.js';
import { credentialRoutes, tokenRoute } from './http/routes/auth.js';
import { cardRoutes } from './http/routes/cards.js';
import { CONTROL_DOCUMENT, controlRoutes } from './http/routes/control.js';
import { customerRoutes } from './http/routes/customers.js';
import { engineRoutes } from './http/routes/engine.js';
import { simulatorCustomerCardRoutes } from './http/routes/simulator-customers-cards.js';
import { simulatorAuthorisationRoutes } from './http/routes/simulator-authorisations.js';
import { transactionRoutes } from './http/routes/transactions.js';
import { webhookRoutes } from './http/routes/webhooks.js';
import { version } from './kernel/version.js';
import { MAX_BODY_BYTES } from './wire/limits.js';

/** The operations declared on `api`, as the API fault lab and the go-live report name them. */
const declared = (api: Api) =>
  api.openAPIRegistry.definitions.flatMap((d): DeclaredOperation[] =>
    d.type === 'route' && d.route.operationId ? [{ method: d.route.method, path: d.route.path, operationId: d.route.operationId }] : [],
  );

export function createApp(deps: Deps): OpenAPIHono<AppEnv> {
  const { config, log, programmes } = deps;
  const onError = errorFunnel(log, programmes);

  const app = new OpenAPIHono<AppEnv>({ defaultHook, router: new RememberingRouter() });
  // First, so that a request's span holds everything done for it (docs/tracing.md: Tracing).
  if (deps.tracing) app.use('*', traceRequests(deps.tracing));
  app.onError(onError);
  // Read on the first request, when every route is added: a known path with another method is a 405.
  let allowed: AllowedMethods | undefined;
  const refuse = (c: Context<AppEnv>, allow: string[]) => {
    c.header('Allow', allow.join(', '));
    return problemResponse(c, methodNotAllowed(c.req.method, c.req.path, allow));
  };
  const fromThisSite = sameSite(config.host, config.allowedHosts);
  app.use(
    '*',
    requestContext(deps, onError, (c) => {
      fromThisSite(c);
      // A literal path wins over a templated route that takes it too: another method is its 405.
      const allow = (allowed ??= methodsOf(app.routes)).shadowing(c.req.path);
      return allow && !allow.includes(c.req.method) ? refuse(c, allow) : undefined;
    }),
  );
  app.notFound((c) => {
    const allow = (allowed ??= methodsOf(app.routes)).of(c.req.path);
    if (allow.length === 0) return problemResponse(c, new SandboxError('route_not_found', `no route for ${c.req.method} ${c.req.path}`));
    return refuse(c, allow);
  });

  // Each group of /v1's routes meets the middleware it is made with (http/api-groups.ts). The
  // operations are known once every route is declared: the API fault lab's rules look them up then.
  let operationOf: (method: string, path: string) => string | undefined = () => undefined;
  const { token, auth, operations: verified } = apiGroups(deps, (method, path) => operationOf(method, path));
  tokenRoute(token, deps);
  credentialRoutes(auth);
  engineRoutes(verified);
  customerRoutes(verified, deps);
  accountRoutes(verified);
  cardRoutes(verified);
  simulatorCustomerCardRoutes(verified, deps);
  webhookRoutes(verified);
  authorisationRoutes(verified);
  transactionRoutes(verified);
  simulatorAuthorisationRoutes(verified, deps);

  // No error handler of its own: the app's catches what each of /v1's handlers throws, at that
  // handler, as this one would; one here would wrap every handler in a second chain of its own.
  const v1 = new OpenAPIHono<AppEnv>({ defaultHook });
  v1.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  // Every request below /v1, a route's or not, has its body read once, first (413 above the limit).
  v1.use('*', readBody(MAX_BODY_BYTES));
  // /openapi.json declares what each group's middleware adds; its paths keep this order.
  for (const [group, pipeline] of [
    [token, { faulted: false, verified: false }],
    [auth, { faulted: true, verified: false }],
    [verified, { faulted: true, verified: true }],
  ] as const) {
    declarePipeline(group.openAPIRegistry, pipeline);
    v1.route('/', group);
  }

  const operations = declared(v1);
  operationOf = operationFinder(operations);
  // POST /auth/token is answered before the lab, which never sees it.
  const faulted = [...declared(auth), ...declared(verified)];
  const unmetApiFaults = (rules: readonly ApiFaultRule[]) => unmetRules(rules, faulted, operations);
  // --api-faults was read before the operations were known: a rule no request can meet stops the
  // start, as the control plane refuses it.
  const unmet = config.apiFaults ? unmetApiFaults(config.apiFaults.rules) : [];
  if (unmet.length) throw new ConfigError(`--api-faults ${unmet.map((e) => `${e.path} ${e.message}`).join('; ')}`);
  app.route('/v1', v1);
  const control = controlRoutes(deps, {
    maxBodyBytes: MAX_BODY_BYTES,
    // The simulator mirror: the same route functions on /_sandbox, without /v1's token, signature and idempotency checks.
    simulator: (api) => {
      simulatorCustomerCardRoutes(api, deps);
      simulatorAuthorisationRoutes(api, deps, { capture: false });
    },
    // The webhook mirror: subscriptions without a token, for `card-sandbox listen` whatever --verify says.
    webhooks: webhookRoutes,
    operations,
    unmetApiFaults,
  });
  // Each document from its own routes; the app's registry holds both, for the harness's answer checks.
  // The request headers and the webhooks belong to the API's document alone.
  registerHeaders(v1.openAPIRegistry);
  registerWebhooks(v1.openAPIRegistry);
  registerNamedSchemas(v1.openAPIRegistry);
  for (const api of [v1, control]) api.openAPIRegistry.registerComponent('responses', 'MethodNotAllowed', METHOD_NOT_ALLOWED);
  // The paths as the service's document writes them, below `servers`: /v1 on the origin the request
  // was sent to, which is where the caller reaches the sandbox (behind a port mapping or a proxy too).
  const apiDocument = documentOf(v1, '', {
    openapi: '3.1.0',
    info: { title: 'card-sandbox', version: version(), description: 'Local emulator of the card-issuance programme API' },
    security: [{ bearerAuth: [] }],
  });
  const controlDocument = documentOf(control, '/_sandbox', CONTROL_DOCUMENT);
  app.get('/openapi.json', (c) => {
    const { openapi, info, ...rest } = apiDocument();
    return answer(c, { openapi, info, servers: [{ url: `${new URL(c.req.url).origin}/v1`, description: 'This sandbox' }], ...rest });
  });
  app.get('/_sandbox/openapi.json', (c) => answer(c, controlDocument()));
  app.route('/_sandbox', control);
  return app;
}

/** An OpenAPI 3.1 document of the routes of `api`, mounted at `prefix`: made when first asked for, then kept. */
function documentOf(api: OpenAPIHono<AppEnv>, prefix: string, config: Parameters<OpenAPIHono['getOpenAPI31Document']>[0]) {
  let document: ReturnType<OpenAPIHono['getOpenAPI31Document']> | undefined;
  return () => {
    if (!document) {
      const made = api.getOpenAPI31Document(config);
      document = { ...made, paths: Object.fromEntries(Object.entries(made.paths ?? {}).map(([path, item]) => [`${prefix}${path}`, item])) };
    }
    return document;
  };
}
