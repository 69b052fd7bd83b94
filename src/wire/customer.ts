/** The Customer resource: its wire shape and the mapping from its row (docs/api.md: Customers, accounts and cards). */
import { z } from 'zod';
import { iso } from '../domain/instant.js';
import { parseAccountId } from '../domain/caip.js';
import { checkWallet, CUSTOMER_STATUSES } from '../domain/customer.js';
import { DateTime, Text, Uuid } from '../domain/formats.js';
import type { customers } from '../store/schema.js';
import { BlockchainAccountId } from './challenge.js';

export const Customer = z
  .object({ id: Uuid, externalId: z.string(), chainId: z.string(), status: z.enum(CUSTOMER_STATUSES), createdAt: DateTime, updatedAt: DateTime })
  .meta({ id: 'Customer' });

export type Customer = z.infer<typeof Customer>;

/** POST /v1/customers, for a sandbox whose engine supports the chains `isSupportedChain` names. */
export const newCustomer = (isSupportedChain: (chain: string) => boolean) =>
  z.object({
    chainId: BlockchainAccountId.superRefine((v, ctx) => {
      const wallet = checkWallet(v, isSupportedChain);
      // A malformed id was already reported by the base schema.
      if (!wallet.ok && parseAccountId(v)) ctx.addIssue({ code: 'custom', message: wallet.message });
    }),
    externalId: Text,
  });
export type NewCustomer = z.infer<ReturnType<typeof newCustomer>>;

export function toCustomer(row: typeof customers.$inferSelect): Customer {
  return { id: row.id, externalId: row.externalId, chainId: row.chainId, status: row.status, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}
