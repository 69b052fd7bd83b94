/**
 * How a control-plane route is declared (docs: GET /_sandbox/openapi.json): its path, parameters,
 * body and answers in one place, which both document it and check its input — JSON bodies and query
 * strings parsed by the same zod schemas, every failure a 400 problem naming the field (the same
 * funnel as /v1). The body is parsed from the bytes the body middleware kept (which refuses a body
 * not sent as JSON); a route that takes a file reads those bytes itself (`rawBody`).
 *
 * The declaration also decides what the route meets before its handler, in this order: the admin
 * token (`admin`), the body, read within the control plane's limit or the file's own (`rawBody`),
 * and the programme the request names (`programme`). Each route carries these itself
 * (control-plane.ts), so the order routes are added in changes none of it.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import type { ControlPlane } from './control-plane.js';
import type { AppEnv } from './env.js';
import { invalidFields, readJson, validationError } from './errors.js';
import { PROGRAMME_PARAMETERS } from './control-openapi.js';
import { jsonBody, problem } from './schemas.js';

/** The request body parsed as JSON (`{}` when there is none). */
function requestJson(c: Context<AppEnv>): unknown {
  const raw = c.get('rawBody');
  if (!raw || raw.length === 0) return {};
  return readJson(Buffer.from(raw).toString('utf8'));
}

/**
 * A route that takes no body refuses one with fields, naming each as a strict body schema does (`{}`
 * or nothing is no body): a field sent is never silently ignored.
 */
function noBody(c: Context<AppEnv>): undefined {
  const value = requestJson(c);
  const keys = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : undefined;
  if (keys?.length === 0) return undefined;
  const message = keys ? `Unrecognized key${keys.length > 1 ? 's' : ''}: ${keys.map((key) => `"${key}"`).join(', ')}` : 'must be left out';
  throw invalidFields([{ path: 'body', message: `${message}: this operation takes no body` }], 'body');
}

function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/**
 * A file the handler reads as bytes, declared as what it is: `application/octet-stream`, described
 * by `description`. The route reads it sent as `application/json` too, as curl users send it;
 * declaring one type keeps generated clients to one way of sending it.
 */
const fileBody = (description: string) => ({
  required: true,
  description,
  content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
});

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

export interface ControlRouteConfig<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The OpenAPI path template, below /_sandbox: `/events/{eventId}`. */
  path: string;
  operationId: string;
  summary: string;
  tags: [string];
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out (then the handler gets the schema's reading of `{}`). */
  bodyOptional?: boolean;
  /** Reads the body when its refusals say more than the schema's (a seed document). */
  readBody?: (value: unknown) => Out<B>;
  /**
   * A body the handler reads itself, as the bytes sent (a snapshot file): what it is, and at most
   * how many bytes (larger than the control plane's limit may be).
   */
  rawBody?: { description: string; maxBytes: number };
  responses: RouteConfig['responses'];
  /** False for the routes that do not act on one programme: `Sandbox-Programme` and `?programme=` are not read. */
  programme?: boolean;
  /** False for a route anyone who reaches the sandbox may call, without the admin token. */
  admin?: boolean;
}

export interface ControlInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

/** Declares a control route in the document and adds it with what it meets and its handler, which gets the checked input. */
export function controlRoute<P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined>(
  api: ControlPlane,
  route: ControlRouteConfig<P, Q, B>,
  handler: (c: Context<AppEnv>, input: ControlInput<P, Q, B>) => Response | Promise<Response>,
): void {
  const { method, path, params, query, body, bodyOptional = false, readBody, rawBody, responses, programme = true, admin = true, ...described } = route;
  api.openAPIRegistry.registerPath(
    createRoute({
      ...described,
      method,
      path,
      request: {
        ...(params && { params: params as never }),
        ...(query && { query: query as never }),
        ...(body && { body: { ...jsonBody(body), required: !bodyOptional } }),
        ...(rawBody && { body: fileBody(rawBody.description) }),
      },
      // `Sandbox-Programme` and `?programme=` on every route that acts on one programme.
      ...(programme && { parameters: PROGRAMME_PARAMETERS as RouteConfig['parameters'] }),
      responses: { ...responses, 400: problem('Invalid request'), ...(admin && { 401: problem('The admin token is missing or wrong') }) },
    }),
  );
  const checks = api.checks({ admin, fileBytes: rawBody?.maxBytes, programme });
  api.on(method.toUpperCase(), [path.replace(/\{(\w+)\}/g, ':$1')], ...checks, (c) =>
    handler(c, {
      params: (params && parse(params, c.req.param(), 'path parameters')) as Out<P>,
      query: (query && parse(query, c.req.query(), 'query parameters')) as Out<Q>,
      body: (body ? (readBody ? readBody(requestJson(c)) : parse(body, requestJson(c), 'body')) : rawBody ? undefined : noBody(c)) as Out<B>,
    }),
  );
}

export const noContent = { 204: { description: 'Done; no body' } } as const;
