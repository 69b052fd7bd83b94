/**
 * The events the sandbox writes and sends as webhooks (docs/webhooks.md: Webhooks): one
 * `<resource>.updated` per change of a resource, listed once here with every status the resource
 * can be in. Everything that names the types or the resources — the schema's enums, the
 * subscription defaults, the go-live report's coverage — derives from this list.
 */
import { ACCOUNT_STATUSES } from './account.js';
import { AUTHORISATION_STATUSES } from './authorisation.js';
import { CARD_STATUSES } from './card.js';
import { CUSTOMER_STATUSES } from './customer.js';
import { TRANSACTION_STATUSES } from './transaction.js';

export const RESOURCES = {
  customer: { type: 'customer.updated', statuses: CUSTOMER_STATUSES },
  account: { type: 'account.updated', statuses: ACCOUNT_STATUSES },
  card: { type: 'card.updated', statuses: CARD_STATUSES },
  authorisation: { type: 'authorisation.updated', statuses: AUTHORISATION_STATUSES },
  transaction: { type: 'transaction.updated', statuses: TRANSACTION_STATUSES },
} as const;

export type ResourceType = keyof typeof RESOURCES;
export type WebhookType = (typeof RESOURCES)[ResourceType]['type'];

export const RESOURCE_TYPES = Object.keys(RESOURCES) as [ResourceType, ...ResourceType[]];
export const WEBHOOK_TYPES = RESOURCE_TYPES.map((resource) => RESOURCES[resource].type) as [WebhookType, ...WebhookType[]];

const RESOURCE_OF = new Map<string, ResourceType>(RESOURCE_TYPES.map((resource) => [RESOURCES[resource].type, resource]));
/** The resource an event type is about, or undefined for a type the sandbox does not send. */
export const resourceOf = (type: string): ResourceType | undefined => RESOURCE_OF.get(type);

/** A delivery of an event to one subscription: waiting for an attempt, answered 2xx, or given up on. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'discarded'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
