/** The Account resource: its wire shape and the mapping from its row (docs/api.md: Customers, accounts and cards). */
import { z } from 'zod';
import { iso } from '../domain/instant.js';
import { ACCOUNT_CURRENCIES, ACCOUNT_STATUSES, ACCOUNT_TYPES } from '../domain/account.js';
import { DateTime, Uuid } from '../domain/formats.js';
import type { accounts } from '../store/schema.js';

export const Account = z
  .object({
    id: Uuid,
    customerId: Uuid,
    chainId: z.string().optional().meta({ description: 'CAIP-10 address of the deployed smart account; absent until deployed' }),
    status: z.enum(ACCOUNT_STATUSES),
    type: z.enum(ACCOUNT_TYPES),
    currencies: z.array(z.string()),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Account' });

export type Account = z.infer<typeof Account>;

/** POST /v1/customers/{customerId}/accounts. */
export const NewAccount = z.object({
  type: z.enum(ACCOUNT_TYPES, { error: `must be ${ACCOUNT_TYPES.join(' or ')}` }),
  currencies: z
    .array(z.enum(ACCOUNT_CURRENCIES, { error: `must be one of ${ACCOUNT_CURRENCIES.join(', ')}` }), { error: 'must be an array of ISO 4217 codes' })
    .min(1, 'must name at least one currency'),
});
export type NewAccount = z.infer<typeof NewAccount>;

/** In the reference's field order; `chainId` only once deployed. */
export function toAccount(row: typeof accounts.$inferSelect): Account {
  return {
    id: row.id,
    customerId: row.customerId,
    ...(row.chainId !== null && { chainId: row.chainId }),
    status: row.status,
    type: row.type,
    currencies: row.currencies,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
