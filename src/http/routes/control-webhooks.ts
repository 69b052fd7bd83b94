/**
 * The delivery lab on the control plane (docs/webhooks.md: Webhooks → The delivery lab): the faults of all
 * the programme's subscriptions or of one, pausing and resuming their deliveries, and retrying or
 * exhausting one delivery. Added before the /_sandbox/webhooks mirror of /v1/webhooks, whose
 * `/webhooks/{webhookId}` would otherwise take `faults` for a webhook id.
 */
import { z } from 'zod';
import { Uuid } from '../../domain/formats.js';
import { FaultsBody } from '../../domain/webhook-faults.js';
import { DeliveryAnswer, FaultsAnswer, PauseAnswer } from '../../wire/delivery-lab.js';
import { controlRoute, noContent } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { servicesOf } from '../env.js';
import { jsonResponse, problem } from '../schemas.js';
import { answer } from '../answer.js';

const WebhookParam = z.object({ webhookId: Uuid });
const DeliveryParam = z.object({ deliveryId: Uuid });
const tags: [string] = ['Delivery lab'];
const noWebhook = { 404: problem('No such webhook subscription') };

export function controlWebhookRoutes(control: ControlPlane): void {
  // For all the programme's subscriptions (those without faults of their own), then for one.
  for (const one of [false, true]) {
    const base = one ? '/webhooks/{webhookId}' : '/webhooks';
    const params = one ? WebhookParam : undefined;
    const whose = one ? "one subscription's" : "the programme's";
    const missing = one ? noWebhook : {};
    const id = (p: { webhookId: string } | undefined) => p?.webhookId;
    controlRoute(
      control,
      {
        method: 'get',
        path: `${base}/faults`,
        operationId: one ? 'getSubscriptionFaults' : 'getWebhookFaults',
        summary: `The delivery faults in force for ${whose} deliveries`,
        tags,
        params,
        responses: { 200: jsonResponse(FaultsAnswer), ...missing },
      },
      (c, { params }) => answer(c, servicesOf(c).lab.faults(id(params))),
    );
    controlRoute(
      control,
      {
        method: 'put',
        path: `${base}/faults`,
        operationId: one ? 'setSubscriptionFaults' : 'setWebhookFaults',
        summary: `Set the delivery faults of ${whose} deliveries`,
        tags,
        params,
        body: FaultsBody,
        responses: { 200: jsonResponse(FaultsAnswer), ...missing },
      },
      (c, { params, body }) => answer(c, servicesOf(c).lab.setFaults(id(params), body)),
    );
    controlRoute(
      control,
      {
        method: 'delete',
        path: `${base}/faults`,
        operationId: one ? 'clearSubscriptionFaults' : 'clearWebhookFaults',
        summary: `Clear the delivery faults of ${whose} deliveries`,
        tags,
        params,
        responses: { ...noContent, ...missing },
      },
      (c, { params }) => {
        servicesOf(c).lab.clearFaults(id(params));
        return c.body(null, 204);
      },
    );
    for (const action of ['pause', 'resume'] as const) {
      controlRoute(
        control,
        {
          method: 'post',
          path: `${base}/${action}`,
          operationId: one ? `${action}Subscription` : `${action}Webhooks`,
          summary: `${action === 'pause' ? 'Hold' : 'Let go'} ${whose} pending deliveries`,
          tags,
          params,
          responses: { 200: jsonResponse(PauseAnswer), ...missing },
        },
        (c, { params }) => answer(c, servicesOf(c).lab[action](id(params))),
      );
    }
  }

  // One delivery.
  controlRoute(
    control,
    {
      method: 'post',
      path: '/deliveries/{deliveryId}/retry',
      operationId: 'retryDelivery',
      summary: 'Attempt a delivery again now',
      tags,
      params: DeliveryParam,
      responses: {
        202: jsonResponse(DeliveryAnswer),
        404: problem('No such delivery'),
        409: problem('Delivered already, or discarded with its deleted webhook'),
      },
    },
    (c, { params }) => answer(c, servicesOf(c).lab.retry(params.deliveryId), 202),
  );
  controlRoute(
    control,
    {
      method: 'post',
      path: '/deliveries/{deliveryId}/exhaust',
      operationId: 'exhaustDelivery',
      summary: 'Give up on a delivery as if every retry had failed',
      tags,
      params: DeliveryParam,
      responses: { 200: jsonResponse(DeliveryAnswer), 404: problem('No such delivery'), 409: problem('Delivered already') },
    },
    (c, { params }) => answer(c, servicesOf(c).lab.exhaust(params.deliveryId)),
  );
}
