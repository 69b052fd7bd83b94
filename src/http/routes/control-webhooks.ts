/**
 * The delivery lab on the control plane (docs/webhooks.md: Webhooks → The delivery lab): the faults of all
 * the programme's subscriptions or of one, pausing and resuming their deliveries, and retrying or
 * exhausting one delivery. Added before the /_sandbox/webhooks mirror of /v1/webhooks, whose
 * `/webhooks/{webhookId}` would otherwise take `faults` for a webhook id.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { Uuid } from '../../domain/formats.js';
import { FaultsBody } from '../../domain/webhook-faults.js';
import { servicesOf, type AppEnv } from '../env.js';
import { jsonOf, parse } from './control-input.js';

const WebhookParam = z.object({ webhookId: Uuid });
const DeliveryParam = z.object({ deliveryId: Uuid });

export function controlWebhookRoutes(control: Hono<AppEnv>): void {
  const lab = (c: Context<AppEnv>) => servicesOf(c).lab;
  const webhookId = (c: Context<AppEnv>) => parse(WebhookParam, c.req.param(), 'path parameters').webhookId;
  const deliveryId = (c: Context<AppEnv>) => parse(DeliveryParam, c.req.param(), 'path parameters').deliveryId;
  const faults = (c: Context<AppEnv>) => parse(FaultsBody, jsonOf(c), 'body');

  // For all the programme's subscriptions (those without faults of their own).
  control.get('/webhooks/faults', (c) => c.json(lab(c).faults()));
  control.put('/webhooks/faults', (c) => c.json(lab(c).setFaults(undefined, faults(c))));
  control.delete('/webhooks/faults', (c) => {
    lab(c).clearFaults();
    return c.body(null, 204);
  });
  control.post('/webhooks/pause', (c) => c.json(lab(c).pause()));
  control.post('/webhooks/resume', (c) => c.json(lab(c).resume()));

  // For one subscription.
  control.get('/webhooks/:webhookId/faults', (c) => c.json(lab(c).faults(webhookId(c))));
  control.put('/webhooks/:webhookId/faults', (c) => {
    const id = webhookId(c);
    return c.json(lab(c).setFaults(id, faults(c)));
  });
  control.delete('/webhooks/:webhookId/faults', (c) => {
    lab(c).clearFaults(webhookId(c));
    return c.body(null, 204);
  });
  control.post('/webhooks/:webhookId/pause', (c) => c.json(lab(c).pause(webhookId(c))));
  control.post('/webhooks/:webhookId/resume', (c) => c.json(lab(c).resume(webhookId(c))));

  // One delivery.
  control.post('/deliveries/:deliveryId/retry', (c) => c.json(lab(c).retry(deliveryId(c)), 202));
  control.post('/deliveries/:deliveryId/exhaust', (c) => c.json(lab(c).exhaust(deliveryId(c))));
}
