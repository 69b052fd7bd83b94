/**
 * The Webhook resource and the verification key: their wire shapes and the mapping from a row; and
 * the body each webhook type is delivered with (docs/webhooks.md: Webhooks).
 */
import { z } from 'zod';
import { iso } from '../domain/instant.js';
import { WEBHOOK_TYPES, type WebhookType as Type } from '../domain/outbox.js';
import { callbackUrlProblem, DateTime, Uuid } from '../domain/formats.js';
import type { webhooks } from '../store/schema.js';
import { Account } from './account.js';
import { Card } from './card.js';
import { Customer } from './customer.js';
import { Authorisation, Transaction } from './payment.js';

export const WebhookType = z.enum(WEBHOOK_TYPES).meta({ id: 'WebhookType' });

export const Webhook = z
  .object({ id: Uuid, callbackUrl: z.url(), types: z.array(WebhookType), createdAt: DateTime, updatedAt: DateTime })
  .meta({ id: 'Webhook' });

export type Webhook = z.infer<typeof Webhook>;

/** PUT /v1/webhooks: a subscription made, or changed when it names one. */
export const SaveWebhook = z.object({
  id: Uuid.optional().meta({ description: 'The webhook to update; without it a webhook is created' }),
  callbackUrl: z
    .string()
    .superRefine((value, ctx) => {
      const message = callbackUrlProblem(value);
      if (message) ctx.addIssue({ code: 'custom', message });
    })
    .meta({ format: 'uri', description: 'An absolute http:// or https:// URL' }),
  types: z.array(WebhookType).meta({ description: 'The event types to send to callbackUrl; an empty list subscribes to none' }),
});
export type SaveWebhook = z.infer<typeof SaveWebhook>;

export const VerificationKey = z.object({ keyId: Uuid, key: z.base64().meta({ format: 'byte' }) }).meta({ id: 'VerificationKey' });

export function toWebhook(row: typeof webhooks.$inferSelect): Webhook {
  return { id: row.id, callbackUrl: row.callbackUrl, types: row.types, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}

/** A delivery's body: `webhookType` and `eventId`, then the entity as GET returns it. */
const event = (type: Type, entity: z.ZodObject, id: string) =>
  z
    .object({ webhookType: z.literal(type), eventId: Uuid })
    .and(entity)
    .meta({ id, description: `The body of a ${type} delivery: the ${type.split('.')[0]} as GET returns it, after webhookType and eventId` });

export const WebhookEvents = {
  'customer.updated': event('customer.updated', Customer, 'CustomerUpdatedEvent'),
  'account.updated': event('account.updated', Account, 'AccountUpdatedEvent'),
  'card.updated': event('card.updated', Card, 'CardUpdatedEvent'),
  'authorisation.updated': event('authorisation.updated', Authorisation, 'AuthorisationUpdatedEvent'),
  'transaction.updated': event('transaction.updated', Transaction, 'TransactionUpdatedEvent'),
} as const satisfies Record<Type, z.ZodType>;
