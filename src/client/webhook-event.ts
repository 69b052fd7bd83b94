/**
 * What a webhook carries (docs/webhooks.md: Webhooks): `{webhookType, eventId, …the entity as GET returns
 * it}`, typed by its `webhookType` from the webhooks of the sandbox's own /openapi.json.
 */
import type { WebhookEvents } from './api.generated.js';

export type WebhookEventType = keyof WebhookEvents;

/** The entity each webhook type carries. */
export type WebhookBodies = { [K in WebhookEventType]: Omit<WebhookEvents[K], 'webhookType' | 'eventId'> };

/** A webhook body; narrow it by `webhookType`. */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = WebhookEvents[T];
