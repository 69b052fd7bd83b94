/**
 * createApp(deps): the Hono application — middleware, /v1 routes, the /_sandbox control plane,
 * /openapi.json and the one error funnel. It neither listens nor reads the environment.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hook } from '@hono/zod-openapi';
import { type ApiFaultRule } from './domain/api-faults.js';
import { operationFinder, unmetRules, type DeclaredOperation } from './domain/api-fault-matching.js';
import { ConfigError } from './config.js';
import { SandboxError } from './domain/errors.js';
import type { Deps } from './deps.js';
import type { AppEnv } from './http/env.js';
import { problemResponse, toSandboxError, validationError } from './http/errors.js';
import { apiFaults } from './http/middleware/api-faults.js';
import { authenticate } from './http/middleware/auth.js';
import { readBody } from './http/middleware/body.js';
import { requestContext } from './http/middleware/context.js';
import { sameSite } from './http/middleware/same-site.js';
import { idempotentRequests } from './http/middleware/idempotency.js';
import { declarePipeline, METHOD_NOT_ALLOWED, registerHeaders, registerNamedSchemas, registerWebhooks } from './http/openapi.js';
import { methodNotAllowed, methodsOf } from './http/method-not-allowed.js';
import { verifyRequests } from './http/middleware/verify.js';
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
import { answer } from './http/answer.js';

export const MAX_BODY_BYTES = 1_048_576;

const TARGETS: Record<string, string> = { json: 'body', param: 'path parameters', query: 'query parameters', header: 'headers' };

const defaultHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) throw validationError(result.error, TARGETS[result.target] ?? result.target);
};

export function createApp(deps: Deps): OpenAPIHono<AppEnv> {
  const { programmes, config, clock, log } = deps;
  const onError = (error: Error, c: Parameters<Parameters<OpenAPIHono<AppEnv>['onError']>[0]>[1]) =>
    problemResponse(c, toSandboxError(error, log, c.get('rawBody')));

  const app = new OpenAPIHono<AppEnv>({ defaultHook });
  app.use('*', requestContext(deps));
  app.use('*', sameSite(config.host, config.allowedHosts));
  app.onError(onError);
  // Read on the first miss, when every route is added: a known path with another method is a 405.
  let allowed: ((path: string) => string[]) | undefined;
  app.notFound((c) => {
    const allow = (allowed ??= methodsOf(app.routes))(c.req.path);
    if (allow.length === 0) return problemResponse(c, new SandboxError('route_not_found', `no route for ${c.req.method} ${c.req.path}`));
    c.header('Allow', allow.join(', '));
    return problemResponse(c, methodNotAllowed(c.req.method, c.req.path, allow));
  });

  // /v1 reads the body once for every route. Then come POST /auth/token, which asks nothing else; a
  // bearer token for the rest of /auth, which never needs a signature, digest or idempotency key;
  // then verification and idempotency for every other operation. Hono runs handlers in the order
  // they were added and a route that answers ends the chain, so each group of routes is added
  // before the middleware it must not meet.
  const v1 = new OpenAPIHono<AppEnv>({ defaultHook });
  v1.onError(onError);
  v1.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  v1.use('*', ...readBody(MAX_BODY_BYTES));
  tokenRoute(v1, deps);
  // Every route added from here on may meet the API fault lab: /openapi.json declares its statuses on them.
  const faultedFrom = v1.openAPIRegistry.definitions.length;
  v1.use('*', authenticate(programmes));
  const declared = () =>
    v1.openAPIRegistry.definitions.flatMap((d): DeclaredOperation[] =>
      d.type === 'route' && d.route.operationId ? [{ method: d.route.method, path: d.route.path, operationId: d.route.operationId }] : [],
    );
  // Answered before the lab, which never sees them: POST /auth/token.
  const unfaulted = declared().length;
  // The operations are known once every route is added below: the lab's rules look them up then.
  let operationOf: (method: string, path: string) => string | undefined = () => undefined;
  v1.use(
    '*',
    apiFaults(config.env, (method, path) => operationOf(method, path)),
  );
  credentialRoutes(v1);
  // Every route added from here on is verified: /openapi.json declares the headers it reads on them.
  const verifiedFrom = v1.openAPIRegistry.definitions.length;
  v1.use('*', verifyRequests(config.verify, clock.wall, log));
  v1.use('*', idempotentRequests());
  engineRoutes(v1);
  customerRoutes(v1, deps);
  accountRoutes(v1);
  cardRoutes(v1);
  simulatorCustomerCardRoutes(v1, deps);
  webhookRoutes(v1);
  authorisationRoutes(v1);
  transactionRoutes(v1);
  simulatorAuthorisationRoutes(v1, deps);

  const operations = declared();
  operationOf = operationFinder(operations);
  const unmetApiFaults = (rules: readonly ApiFaultRule[]) => unmetRules(rules, operations.slice(unfaulted), operations);
  // --api-faults was read before the operations were known: a rule no request can meet stops the
  // start, as the control plane refuses it.
  const unmet = config.apiFaults ? unmetApiFaults(config.apiFaults.rules) : [];
  if (unmet.length) throw new ConfigError(`--api-faults ${unmet.map((e) => `${e.path} ${e.message}`).join('; ')}`);
  declarePipeline(v1.openAPIRegistry, faultedFrom, verifiedFrom);
  app.route('/v1', v1);
  // The simulator mirror: the same route functions on /_sandbox, without /v1's token, signature and idempotency checks.
  const simulator = new OpenAPIHono<AppEnv>({ defaultHook });
  simulatorCustomerCardRoutes(simulator, deps);
  simulatorAuthorisationRoutes(simulator, deps);
  // The webhook mirror: subscriptions without a token, for `card-sandbox listen` whatever --verify says.
  const webhooks = new OpenAPIHono<AppEnv>({ defaultHook });
  webhookRoutes(webhooks);
  const control = controlRoutes(deps, { maxBodyBytes: MAX_BODY_BYTES, simulator, webhooks, operations, unmetApiFaults });
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
