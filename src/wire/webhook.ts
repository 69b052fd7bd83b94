/** The Webhook resource and the verification key: their wire shapes and the mapping from a row (docs/webhooks.md: Webhooks). */
import { z } from 'zod';
import { iso } from '../clock.js';
import { WEBHOOK_TYPES } from '../domain/events.js';
import { DateTime, Uuid } from '../domain/formats.js';
import type { webhooks } from '../store/schema.js';

export const WebhookType = z.enum(WEBHOOK_TYPES).meta({ id: 'WebhookType' });

export const Webhook = z.object({ id: Uuid, callbackUrl: z.url(), types: z.array(WebhookType), createdAt: DateTime, updatedAt: DateTime }).meta({ id: 'Webhook' });

export type Webhook = z.infer<typeof Webhook>;

export const VerificationKey = z.object({ keyId: Uuid, key: z.base64() }).meta({ id: 'VerificationKey' });

export function toWebhook(row: typeof webhooks.$inferSelect): Webhook {
  return { id: row.id, callbackUrl: row.callbackUrl, types: row.types, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}
