/**
 * The Webhook resource and the verification key: their wire shapes and the mapping from a row; and
 * the body each webhook type is delivered with (docs/webhooks.md: Webhooks).
 */
import { z } from 'zod';
import { iso } from '../domain/instant.js';
import { WEBHOOK_TYPES, type WebhookType as Type } from '../domain/outbox.js';
import { callbackUrlProblem, MAX_TEXT_LENGTH } from '../domain/formats.js';
import type { webhooks } from '../store/schema.js';
import { Account } from './account.js';
import { Card } from './card.js';
import { Customer } from './customer.js';
import { Authorisation, Transaction } from './payment.js';
import { DateTime, URL, UUID, WebhookId, WebhookType } from './scalars.js';

export { WebhookType };

export const Webhook = z
  .object({ id: WebhookId, callbackUrl: URL, types: z.array(WebhookType), createdAt: DateTime, updatedAt: DateTime })
  .meta({ id: 'Webhook' });

export type Webhook = z.infer<typeof Webhook>;

/** PUT /v1/webhooks: a subscription made, or changed when it names one. */
export const SaveWebhook = z.object({
  id: WebhookId.optional().meta({ description: 'The webhook to update; without it a webhook is created' }),
  callbackUrl: z
    .string()
    .superRefine((value, ctx) => {
      const message = callbackUrlProblem(value);
      if (message) ctx.addIssue({ code: 'custom', message });
    })
    // What `callbackUrlProblem` checks but that it is a URL `new URL()` reads.
    .meta({ format: 'uri', maxLength: MAX_TEXT_LENGTH, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/\\s]\\S*$', description: 'An absolute http:// or https:// URL' }),
  types: z.array(WebhookType).meta({ description: 'The event types to send to callbackUrl; an empty list subscribes to none' }),
});
export type SaveWebhook = z.infer<typeof SaveWebhook>;

export const VerificationKey = z.object({ keyId: UUID, key: z.base64().meta({ format: 'byte' }) }).meta({ id: 'VerificationKey' });

export function toWebhook(row: typeof webhooks.$inferSelect): Webhook {
  return { id: row.id, callbackUrl: row.callbackUrl, types: row.types, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}

/** What every delivery's body starts with. */
export const WebhookEventBase = z.object({ eventId: UUID, webhookType: WebhookType }).meta({ id: 'WebhookEventBase' });

/**
 * The entity each webhook type is delivered with, and the name its body has in the documents: the one
 * table of webhook bodies. The schemas below and the snapshot file's check (snapshots/checks.ts) derive
 * from it; a type of outbox.ts without its line here does not compile.
 */
export const WEBHOOK_BODIES = {
  'customer.updated': { entity: Customer, id: 'CustomerUpdate' },
  'account.updated': { entity: Account, id: 'AccountUpdate' },
  'card.updated': { entity: Card, id: 'CardUpdate' },
  'authorisation.updated': { entity: Authorisation, id: 'AuthorisationUpdate' },
  'transaction.updated': { entity: Transaction, id: 'TransactionUpdate' },
} as const satisfies Record<Type, { entity: z.ZodObject; id: string }>;

/** A delivery's body: `webhookType` and `eventId`, then the entity as GET returns it. */
const event = (type: Type) =>
  z
    .object({ webhookType: z.literal(type), eventId: UUID })
    .and(WEBHOOK_BODIES[type].entity)
    .meta({
      id: WEBHOOK_BODIES[type].id,
      description: `The body of a ${type} delivery: the ${type.split('.')[0]} as GET returns it, after webhookType and eventId`,
    });

export const WebhookEvents = Object.fromEntries(WEBHOOK_TYPES.map((type): [Type, z.ZodType] => [type, event(type)])) as Record<Type, z.ZodType>;

/** Any delivery's body, told apart by `webhookType`. */
export const WebhookEvent = z
  .union(Object.values(WebhookEvents) as unknown as [z.ZodType, ...z.ZodType[]])
  .meta({ id: 'WebhookEvent', description: 'Any delivery body; webhookType says which' });

/** What a receiver may answer a delivery with: the sandbox reads only the status. */
export const EmptyResponse = z.object({}).meta({ id: 'EmptyResponse' });
export const WebhookResponse = z.union([EmptyResponse]).meta({ id: 'WebhookResponse' });
