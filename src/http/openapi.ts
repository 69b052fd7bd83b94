/**
 * What /openapi.json says beyond each route's own declaration (docs/api.md: Errors → Where the
 * sandbox differs from the service's document): the request headers the /v1 pipeline reads, the
 * statuses it may answer on its own, the webhooks the sandbox sends, and the schemas the service's
 * document names that no operation refers to. Each is declared here once, from the same rules the
 * middleware follows, rather than on every route.
 *
 * The headers go into the operations' `parameters`, which only document: @hono/zod-openapi
 * validates `request` alone, so `--verify` still decides what a missing signature, digest or
 * idempotency key does (docs/signatures.md: Request verification).
 */
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import { z } from 'zod';
import { MUTATIONS } from '../domain/idempotency.js';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { ATTEMPT_TIMEOUT_MS } from '../config/index.js';
import { CustomerInfo } from '../wire/customer.js';
import * as scalars from '../wire/scalars.js';
import { EmptyResponse, WebhookEvent, WebhookEventBase, WebhookEvents, WebhookResponse } from '../wire/webhook.js';
import { problem } from './schemas.js';

/** The request headers, as components every operation that needs one refers to, named as the service's document names them. */
const HEADERS = {
  SignatureHeader: {
    name: 'Signature',
    description: 'RFC 9421 signature, `<label>=:<base64 of the 96-byte r‖s>:` (ecdsa-p384-sha384)',
    schema: { type: 'string' },
  },
  SignatureInputHeader: {
    name: 'Signature-Input',
    description:
      'RFC 9421 signature input: the covered components ("@method" "@authority" "@path", and "content-digest" when there is a body) with `created` and `keyid`',
    schema: { type: 'string' },
  },
  ContentDigestHeader: {
    name: 'Content-Digest',
    description: 'RFC 9530 digest of the exact body bytes: `sha-512=:<base64>:` and/or `sha-256=:<base64>:`',
    schema: { type: 'string' },
  },
  IdempotencyKeyHeader: {
    name: 'Idempotency-Key',
    description: 'A UUID naming this request; its retries send the same one',
    schema: { type: 'string', format: 'uuid' },
  },
} as const;

type Header = keyof typeof HEADERS;
type OpenAPIRegistry = OpenAPIHono['openAPIRegistry'];

const ref = (header: Header) => ({ $ref: `#/components/parameters/${header}` });

export function registerHeaders(registry: OpenAPIRegistry): void {
  for (const [id, header] of Object.entries(HEADERS)) registry.registerComponent('parameters', id, { in: 'header', required: true, ...header });
}

/** The headers verification reads on an operation (middleware/verify.ts). */
function verifiedHeaders(route: RouteConfig): Header[] {
  return [
    'SignatureHeader',
    'SignatureInputHeader',
    ...(MUTATIONS.has(route.method.toUpperCase()) ? (['IdempotencyKeyHeader'] as const) : []),
    ...(route.request?.body ? (['ContentDigestHeader'] as const) : []),
  ];
}

/** What any operation may answer whatever it is: a Host the sandbox does not serve, or a browser's cross-site write (middleware/same-site.ts). */
export const FORBIDDEN = problem('Forbidden: a Host the sandbox does not answer to, or a cross-site request from a browser');

type Responses = NonNullable<RouteConfig['responses']>;
type HeaderSchema = { type: 'string' | 'integer'; format?: string };
/** A response header: `required` when every answer of its status carries it. */
export const responseHeader = (description: string, schema: HeaderSchema = { type: 'string' }, required = false) => ({
  description,
  schema,
  ...(required && { required }),
});

/** The headers every answer carries, whoever makes it (middleware/context.ts). */
export const ANSWER_HEADERS = {
  'Request-Id': responseHeader('The id of this request, as the request journal and the logs name it', { type: 'string', format: 'uuid' }, true),
};

/** Adds `headers` to each answer of `responses`, beside those it declares: new objects, as answers may be shared. */
export function withHeaders(responses: Responses, headers: Record<string, unknown>, statuses?: (status: string) => boolean): Responses {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      statuses && !statuses(status) ? response : { ...response, headers: { ...headers, ...((response as { headers?: object }).headers ?? {}) } },
    ]),
  ) as Responses;
}

/** What the API fault lab answers in an operation's place, when a rule or a Sandbox-Fault header says so (docs/api-faults.md). */
const FAULTS = {
  429: {
    ...problem('Too many requests: only from the API fault lab'),
    headers: { 'Retry-After': responseHeader('When to try again, in seconds: 1 unless the rule says otherwise', { type: 'integer' }, true) },
  },
  502: problem('Bad gateway: only from the API fault lab'),
  503: {
    ...problem('Service unavailable: only from the API fault lab'),
    headers: { 'Retry-After': responseHeader('When to try again, in seconds, when the rule says', { type: 'integer' }) },
  },
  504: problem('Gateway timeout: only from the API fault lab'),
} as const;

const WARNING = { 'Sandbox-Warning': responseHeader('With --verify warn, one per check the request failed and was let through: `<code>: <detail>`') };
const REPLAYED = { 'Idempotent-Replayed': responseHeader('`true` on the stored answer to a retry with the same Idempotency-Key') };

/**
 * Declares on a group of /v1's routes (api-groups.ts) what the pipeline adds to each: 403 on any
 * (middleware/same-site.ts); a body over the limit is 413 on any operation but a GET
 * (middleware/body.ts); on the groups behind the API fault lab (`faulted`), the lab's statuses; and
 * on the `verified` group, the headers verification reads and, on a mutation, the 409 of a key
 * still in flight (middleware/idempotency.ts). Call it once the group's routes are declared and
 * before it is mounted, which copies them.
 */
export function declarePipeline(registry: OpenAPIRegistry, { faulted, verified }: { faulted: boolean; verified: boolean }): void {
  for (const definition of registry.definitions) {
    if (definition.type !== 'route') continue;
    const { route } = definition;
    const responses = { ...route.responses };
    responses[403] ??= FORBIDDEN;
    if (route.method !== 'get') responses[413] ??= problem('Body too large');
    if (faulted) for (const [status, response] of Object.entries(FAULTS)) responses[status] ??= response;
    const mutation = MUTATIONS.has(route.method.toUpperCase());
    if (verified) {
      route.parameters = [...verifiedHeaders(route).map(ref), ...(route.parameters ?? [])] as RouteConfig['parameters'];
      if (mutation) responses[409] ??= problem('Idempotency conflict');
    }
    // Past verification, an answer may carry its warnings (warn) and, to a write, the mark of a replay.
    const operation = verified ? { ...WARNING, ...(mutation ? REPLAYED : {}) } : {};
    route.responses = withHeaders(withHeaders(responses, ANSWER_HEADERS), operation, (status) => status !== '403' && status !== '413');
  }
}

const PASCAL = (type: string) => type.replace(/(^|\.)(\w)/g, (_, __, c: string) => c.toUpperCase());

/**
 * The webhooks section: one entry per event type, a POST of its body to the subscription's
 * callbackUrl with the headers every delivery carries (webhooks/send.ts; docs/webhooks.md:
 * Webhooks), and the service's document's own entry, `{callbackUrl}`, whose body is any of them.
 */
export function registerWebhooks(registry: OpenAPIRegistry): void {
  const signed = 'made by the sandbox with the key GET /v1/webhooks/verification-key serves';
  const parameters = [
    { ...ref('ContentDigestHeader'), description: 'RFC 9530 SHA-512 digest of the body bytes' },
    { ...ref('SignatureInputHeader'), description: `Covers "@method" "@authority" "@path" "content-digest"; ${signed}` },
    { ...ref('SignatureHeader'), description: `ecdsa-p384-sha384, ${signed}` },
    {
      in: 'header' as const,
      name: 'Sandbox-Event-Id',
      required: true,
      description: 'The event id, the same on every attempt and resend: deduplicate on it',
      schema: { type: 'string' as const, format: 'uuid' },
    },
    {
      in: 'header' as const,
      name: 'Sandbox-Delivery-Attempt',
      required: true,
      description: 'Which attempt of this delivery this is, from 1',
      schema: { type: 'integer' as const, minimum: 1 },
    },
  ];
  const responses = {
    200: { description: 'Delivered', content: { 'application/json': { schema: WebhookResponse } } },
    '2XX': { description: `Delivered: any 2xx received in full within ${ATTEMPT_TIMEOUT_MS / 1000} s` },
    default: { description: 'Not delivered: the attempt is retried' },
  };
  const delivery = (path: string, operationId: string | undefined, summary: string, schema: z.ZodType) =>
    registry.registerWebhook({
      method: 'post',
      path,
      ...(operationId && { operationId }),
      summary,
      security: [],
      parameters,
      request: { body: { required: true, content: { 'application/json': { schema } } } },
      responses,
    });
  for (const type of WEBHOOK_TYPES) delivery(type, `on${PASCAL(type)}`, `A ${type} event, sent to each webhook subscribed to it`, WebhookEvents[type]);
  // The service's own entry, as its document has it: no operationId, which would rename the types a generator makes of it.
  delivery('{callbackUrl}', undefined, 'Any event, sent to each webhook subscribed to its type', WebhookEvent);
}

/**
 * Every schema the service's document names, under its name, whether or not an operation refers to
 * it (`CustomerInfo`, `UUID`…), so that each generated type exists as it does from that document.
 */
export function registerNamedSchemas(registry: OpenAPIRegistry): void {
  const named = [...Object.values(scalars), CustomerInfo, WebhookEventBase, WebhookEvent, EmptyResponse, WebhookResponse];
  for (const schema of named) {
    const meta = schema instanceof z.ZodType ? (z.globalRegistry.get(schema) as { id?: string } | undefined) : undefined;
    // A copy made now, after @hono/zod-openapi has extended zod, which the registry can name.
    if (meta?.id) registry.register(meta.id, (schema as z.ZodType).meta(meta) as Parameters<OpenAPIRegistry['register']>[1]);
  }
}

/**
 * The answer to a known path with a method it does not have (app.ts), declared once for the whole
 * document, as no operation answers it.
 */
export const METHOD_NOT_ALLOWED = {
  description: 'The path has no operation for the method: `Allow` lists those it has',
  headers: { ...ANSWER_HEADERS, Allow: { description: 'The methods the path has, with HEAD for a GET', schema: { type: 'string' as const } } },
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
};
