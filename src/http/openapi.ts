/**
 * What /openapi.json says beyond each route's own declaration (docs/api.md: Errors → Where the
 * sandbox differs from the service's document): the request headers the /v1 pipeline reads, the
 * statuses it may answer on its own, and the webhooks the sandbox sends. Each is declared here
 * once, from the same rules the middleware follows, rather than on every route.
 *
 * The headers go into the operations' `parameters`, which only document: @hono/zod-openapi
 * validates `request` alone, so `--verify` still decides what a missing signature, digest or
 * idempotency key does (docs/signatures.md: Request verification).
 */
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import { MUTATIONS } from '../domain/idempotency.js';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { ATTEMPT_TIMEOUT_MS } from '../webhooks/send.js';
import { WebhookEvents } from '../wire/webhook.js';
import { problem } from './schemas.js';

/** The request headers, as components every operation that needs one refers to. */
const HEADERS = {
  Signature: {
    name: 'Signature',
    description: 'RFC 9421 signature, `<label>=:<base64 of the 96-byte r‖s>:` (ecdsa-p384-sha384)',
    schema: { type: 'string' },
  },
  SignatureInput: {
    name: 'Signature-Input',
    description:
      'RFC 9421 signature input: the covered components ("@method" "@authority" "@path", and "content-digest" when there is a body) with `created` and `keyid`',
    schema: { type: 'string' },
  },
  ContentDigest: {
    name: 'Content-Digest',
    description: 'RFC 9530 digest of the exact body bytes: `sha-512=:<base64>:` and/or `sha-256=:<base64>:`',
    schema: { type: 'string' },
  },
  IdempotencyKey: {
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
    'Signature',
    'SignatureInput',
    ...(MUTATIONS.has(route.method.toUpperCase()) ? (['IdempotencyKey'] as const) : []),
    ...(route.request?.body ? (['ContentDigest'] as const) : []),
  ];
}

/**
 * Declares on a group of /v1's routes (api-groups.ts) what the pipeline adds to each: a body over
 * the limit is 413 on any operation but a GET (middleware/body.ts); and on the `verified` groups,
 * the headers verification reads and, on a mutation, the 409 of a key still in flight
 * (middleware/idempotency.ts). Call it once the group's routes are declared and before it is
 * mounted, which copies them.
 */
export function declarePipeline(registry: OpenAPIRegistry, verified: boolean): void {
  for (const definition of registry.definitions) {
    if (definition.type !== 'route') continue;
    const { route } = definition;
    const responses = { ...route.responses };
    if (route.method !== 'get') responses[413] ??= problem('Body too large');
    if (verified) {
      route.parameters = [...verifiedHeaders(route).map(ref), ...(route.parameters ?? [])] as RouteConfig['parameters'];
      if (MUTATIONS.has(route.method.toUpperCase())) responses[409] ??= problem('Idempotency conflict');
    }
    route.responses = responses;
  }
}

const PASCAL = (type: string) => type.replace(/(^|\.)(\w)/g, (_, __, c: string) => c.toUpperCase());

/**
 * The webhooks section: one entry per event type, a POST of its body to the subscription's
 * callbackUrl with the headers every delivery carries (webhooks/send.ts; docs/webhooks.md: Webhooks).
 */
export function registerWebhooks(registry: OpenAPIRegistry): void {
  const signed = 'made by the sandbox with the key GET /v1/webhooks/verification-key serves';
  for (const type of WEBHOOK_TYPES) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `on${PASCAL(type)}`,
      summary: `A ${type} event, sent to each webhook subscribed to it`,
      security: [],
      parameters: [
        { ...ref('ContentDigest'), description: 'RFC 9530 SHA-512 digest of the body bytes' },
        { ...ref('SignatureInput'), description: `Covers "@method" "@authority" "@path" "content-digest"; ${signed}` },
        { ...ref('Signature'), description: `ecdsa-p384-sha384, ${signed}` },
        {
          in: 'header',
          name: 'Sandbox-Event-Id',
          required: true,
          description: 'The event id, the same on every attempt and resend: deduplicate on it',
          schema: { type: 'string', format: 'uuid' },
        },
        {
          in: 'header',
          name: 'Sandbox-Delivery-Attempt',
          required: true,
          description: 'Which attempt of this delivery this is, from 1',
          schema: { type: 'integer', minimum: 1 },
        },
      ],
      request: { body: { required: true, content: { 'application/json': { schema: WebhookEvents[type] } } } },
      responses: {
        '2XX': { description: `Delivered: any 2xx received in full within ${ATTEMPT_TIMEOUT_MS / 1000} s` },
        default: { description: 'Not delivered: the attempt is retried' },
      },
    });
  }
}
