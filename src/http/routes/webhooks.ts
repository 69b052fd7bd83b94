/** /v1/webhooks: subscriptions and the verification key (docs/webhooks.md: Webhooks). */
import { createRoute, z } from '@hono/zod-openapi';
import { SaveWebhook, VerificationKey, Webhook } from '../../wire/webhook.js';
import { answer } from '../answer.js';
import { servicesOf, type Api } from '../env.js';
import { idParam, jsonBody, jsonResponse, problem, standardProblems } from '../schemas.js';
const notFound = { 404: problem('Webhook not found') };
const tags = ['Webhooks'];

export function webhookRoutes(api: Api): void {
  api.openapi(
    createRoute({
      method: 'get',
      path: '/webhooks',
      tags,
      operationId: 'getWebhooks',
      summary: "The programme's webhook subscriptions",
      responses: { 200: jsonResponse(z.array(Webhook)), ...standardProblems },
    }),
    (c) => answer(c, servicesOf(c).webhooks.list(), 200),
  );

  api.openapi(
    createRoute({
      method: 'put',
      path: '/webhooks',
      tags,
      operationId: 'saveWebhook',
      summary: 'Subscribe a callback URL to event types, or change the subscription an id names',
      request: { body: jsonBody(SaveWebhook) },
      responses: { 200: jsonResponse(Webhook), ...standardProblems },
    }),
    (c) => answer(c, servicesOf(c).webhooks.put(c.req.valid('json')), 200),
  );

  // Declared before /webhooks/{webhookId}, which would otherwise refuse "verification-key" as not a UUID.
  api.openapi(
    createRoute({
      method: 'get',
      path: '/webhooks/verification-key',
      tags,
      operationId: 'getWebhookVerificationKey',
      summary: "The public key that webhook deliveries' signatures verify with",
      responses: { 200: jsonResponse(VerificationKey), ...standardProblems },
    }),
    (c) => answer(c, servicesOf(c).webhooks.verificationKey(), 200),
  );

  api.openapi(
    createRoute({
      method: 'get',
      path: '/webhooks/{webhookId}',
      tags,
      operationId: 'getWebhook',
      summary: 'One webhook subscription, by id',
      request: { params: idParam('webhookId') },
      responses: { 200: jsonResponse(Webhook), ...standardProblems, ...notFound },
    }),
    (c) => answer(c, servicesOf(c).webhooks.get(c.req.valid('param').webhookId), 200),
  );

  api.openapi(
    createRoute({
      method: 'delete',
      path: '/webhooks/{webhookId}',
      tags,
      operationId: 'deleteWebhook',
      summary: 'End a webhook subscription: its callback URL is sent nothing more',
      request: { params: idParam('webhookId') },
      responses: { 204: { description: 'Successful operation' }, ...standardProblems, ...notFound },
    }),
    (c) => {
      servicesOf(c).webhooks.remove(c.req.valid('param').webhookId);
      return c.body(null, 204);
    },
  );
}
