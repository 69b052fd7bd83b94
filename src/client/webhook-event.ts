/**
 * What a webhook carries (docs/webhooks.md: Webhooks): `{webhookType, eventId, …the entity as GET returns
 * it}`, typed by its `webhookType` from the generated resource types.
 */
import type { Account, Authorisation, Card, Customer, Transaction } from './api.generated.js';

/** The entity each webhook type carries. */
export interface WebhookBodies {
  'customer.updated': Customer;
  'account.updated': Account;
  'card.updated': Card;
  'authorisation.updated': Authorisation;
  'transaction.updated': Transaction;
}

export type WebhookEventType = keyof WebhookBodies;

/** A webhook body; narrow it by `webhookType`. */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = { [K in T]: WebhookBodies[K] & { webhookType: K; eventId: string } }[T];
