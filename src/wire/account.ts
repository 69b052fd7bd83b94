/** The Account resource: its wire shape and the mapping from its row (docs/api.md: Customers, accounts and cards). */
import { z } from 'zod';
import { iso } from '../domain/instant.js';
import { ACCOUNT_CURRENCIES, ACCOUNT_TYPES, type AccountCurrency } from '../domain/account.js';
import type { accounts } from '../store/schema.js';
import { AccountId, AccountStatus, AccountType, BlockchainAccountId, Currency, CustomerId, DateTime, oneOfPattern } from './scalars.js';

export const Account = z
  .object({
    id: AccountId,
    customerId: CustomerId,
    /** The deployed smart account; absent until deployed. */
    chainId: BlockchainAccountId.optional(),
    status: AccountStatus,
    type: AccountType,
    // Always sent; optional as the service's document has it (docs/api.md: Where the sandbox differs from the service's document).
    currencies: z.array(Currency).optional(),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Account' });

export type Account = z.infer<typeof Account>;

const currencyMessage = `must be one of ${ACCOUNT_CURRENCIES.join(', ')}`;

/** POST /v1/customers/{customerId}/accounts. */
export const NewAccount = z.object({
  type: z.enum(ACCOUNT_TYPES, { error: `must be ${ACCOUNT_TYPES.join(' or ')}` }),
  // A pattern rather than an enum keeps the generated type a string, as the service's document has it.
  currencies: z
    .array(
      z
        .string({ error: currencyMessage })
        .regex(new RegExp(oneOfPattern(ACCOUNT_CURRENCIES)), currencyMessage)
        .transform((code) => code as AccountCurrency),
      { error: 'must be an array of ISO 4217 codes' },
    )
    .min(1, 'must name at least one currency')
    // Each at most once (services/accounts.ts refuses a repeat).
    .meta({ uniqueItems: true }),
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
