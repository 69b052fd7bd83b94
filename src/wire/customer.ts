/** The Customer resource: its wire shape and the mapping from its row (docs/api.md: Customers, accounts and cards). */
import { z } from 'zod';
import { iso } from '../clock.js';
import { CUSTOMER_STATUSES } from '../domain/customer.js';
import { DateTime, Uuid } from '../domain/formats.js';
import type { customers } from '../store/schema.js';

export const Customer = z
  .object({ id: Uuid, externalId: z.string(), chainId: z.string(), status: z.enum(CUSTOMER_STATUSES), createdAt: DateTime, updatedAt: DateTime })
  .meta({ id: 'Customer' });

export type Customer = z.infer<typeof Customer>;

export function toCustomer(row: typeof customers.$inferSelect): Customer {
  return { id: row.id, externalId: row.externalId, chainId: row.chainId, status: row.status, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}
