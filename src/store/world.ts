/**
 * The tables that make a programme's world: what a reset wipes, a snapshot holds and its counts
 * name. Children come before parents (foreign keys). Credentials, signing keys and the programme's
 * own row are not part of it.
 */
import * as tables from './schema.js';

export const WORLD_TABLES = {
  attempts: tables.attempts,
  deliveries: tables.deliveries,
  events: tables.events,
  jobs: tables.jobs,
  transactions: tables.transactions,
  authorisations: tables.authorisations,
  cards: tables.cards,
  accounts: tables.accounts,
  customers: tables.customers,
  webhooks: tables.webhooks,
  idempotencyKeys: tables.idempotencyKeys,
} as const;

export type WorldTableName = keyof typeof WORLD_TABLES;
export type WorldTable = (typeof WORLD_TABLES)[WorldTableName];
export const WORLD_TABLE_NAMES = Object.keys(WORLD_TABLES) as WorldTableName[];
