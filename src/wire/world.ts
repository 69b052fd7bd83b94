/**
 * The whole world of a programme at a glance (GET /_sandbox/world), and its counts.
 */
import { z } from 'zod';
import { DELIVERY_STATUSES } from '../domain/outbox.js';
import { Count } from '../domain/formats.js';
import { Account } from './account.js';
import { Card } from './card.js';
import { Customer } from './customer.js';
import { Authorisation, Transaction } from './payment.js';
import { Webhook } from './webhook.js';

export const WorldCard = z
  .intersection(Card, z.object({ authorisations: z.array(Authorisation), transactions: z.array(Transaction) }))
  .meta({ id: 'WorldCard' });
export type WorldCard = z.infer<typeof WorldCard>;

export const WorldAccount = z
  .intersection(
    Account,
    z.object({
      cards: z.array(WorldCard),
      /** Transactions that name no card (the API makes none today); omitted when there are none. */
      transactions: z.array(Transaction).optional(),
    }),
  )
  .meta({ id: 'WorldAccount' });
export type WorldAccount = z.infer<typeof WorldAccount>;

export const WorldCustomer = z.intersection(Customer, z.object({ accounts: z.array(WorldAccount) })).meta({ id: 'WorldCustomer' });
export type WorldCustomer = z.infer<typeof WorldCustomer>;

/** GET /_sandbox/world: oldest first at every level. */
export const World = z.object({ webhooks: z.array(Webhook), customers: z.array(WorldCustomer) }).meta({ id: 'World' });
export type World = z.infer<typeof World>;

/** GET /_sandbox/world/counts. */
export const WorldCounts = z
  .object({
    customers: Count,
    accounts: Count,
    cards: Count,
    authorisations: Count,
    transactions: Count,
    webhooks: Count,
    events: Count,
    /** Deliveries by state, each present even at 0. */
    deliveries: z.object(Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, Count])) as Record<(typeof DELIVERY_STATUSES)[number], typeof Count>),
  })
  .meta({ id: 'WorldCounts' });
export type WorldCounts = z.infer<typeof WorldCounts>;
