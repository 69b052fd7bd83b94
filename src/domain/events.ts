/**
 * The events the sandbox writes and sends as webhooks: one `<entity>.updated` per change of a
 * customer, account, card, authorisation or transaction (docs/webhooks.md: Webhooks).
 */
export const WEBHOOK_TYPES = ['customer.updated', 'account.updated', 'card.updated', 'authorisation.updated', 'transaction.updated'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** A delivery of an event to one subscription: waiting for an attempt, answered 2xx, or given up on. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'discarded'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
