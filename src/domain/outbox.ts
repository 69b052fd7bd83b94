/**
 * The events the sandbox writes and sends as webhooks (docs/webhooks.md: Webhooks): one
 * `<resource>.updated` per change of a resource, listed once here. Everything that names the types
 * or the resources — the schema's enums, the subscription defaults, the go-live report's coverage
 * (reach.ts: each resource's statuses and how each is reached, which must name every resource, or
 * it does not compile) —
 * derives from this list. It imports nothing, so the inspector bundles it for a few bytes.
 */
export const RESOURCES = {
  customer: 'customer.updated',
  account: 'account.updated',
  card: 'card.updated',
  authorisation: 'authorisation.updated',
  transaction: 'transaction.updated',
} as const;

export type ResourceType = keyof typeof RESOURCES;
export type WebhookType = (typeof RESOURCES)[ResourceType];

export const RESOURCE_TYPES = Object.keys(RESOURCES) as [ResourceType, ...ResourceType[]];
export const WEBHOOK_TYPES = RESOURCE_TYPES.map((resource) => RESOURCES[resource]) as [WebhookType, ...WebhookType[]];

const RESOURCE_OF = new Map<string, ResourceType>(RESOURCE_TYPES.map((resource) => [RESOURCES[resource], resource]));
/** The resource an event type is about, or undefined for a type the sandbox does not send. */
export const resourceOf = (type: string): ResourceType | undefined => RESOURCE_OF.get(type);

/** A delivery of an event to one subscription: waiting for an attempt, answered 2xx, or given up on. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'discarded'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
