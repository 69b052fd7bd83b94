/** The Customer resource: its wire shape and the mapping from its row (docs/api.md: Customers, accounts and cards). */
import { z } from 'zod';
import { iso } from '../domain/instant.js';
import { walletPattern } from '../domain/caip.js';
import { checkWallet } from '../domain/customer.js';
import { Address } from '../domain/address.js';
import { Text } from '../domain/formats.js';
import type { customers } from '../store/schema.js';
import { BlockchainAccountId, CustomerId, CustomerStatus, DateTime } from './scalars.js';

export const Customer = z
  .object({ id: CustomerId, externalId: z.string(), chainId: BlockchainAccountId, status: CustomerStatus, createdAt: DateTime, updatedAt: DateTime })
  .meta({ id: 'Customer' });

export type Customer = z.infer<typeof Customer>;

/** A customer's wallet, for a sandbox whose engine supports `chains`: an EVM account on one of them, as the schema's pattern says. */
export const walletOn = (chains: readonly string[]) =>
  z
    .string({ error: 'must be a CAIP-10 account id' })
    .superRefine((v, ctx) => {
      const wallet = checkWallet(v, (chain) => chains.includes(chain));
      if (!wallet.ok) ctx.addIssue({ code: 'custom', message: wallet.message });
    })
    .meta({
      pattern: walletPattern(chains),
      description: 'A CAIP-10 account on a chain of GET /chains',
      example: `${chains[0]}:0xAb16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb`,
    });

/** POST /v1/customers, for a sandbox whose engine supports `chains`. */
export const newCustomer = (chains: readonly string[]) => z.object({ chainId: walletOn(chains), externalId: Text });
export type NewCustomer = z.infer<ReturnType<typeof newCustomer>>;

export function toCustomer(row: typeof customers.$inferSelect): Customer {
  return { id: row.id, externalId: row.externalId, chainId: row.chainId, status: row.status, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}

/**
 * A customer's personal details for KYC. No operation takes or answers them, in the service's
 * document as here (the simulator gives the verdict); the schema is declared under its name so
 * that a client generated from either document has the type.
 */
export const CustomerInfo = z
  .object({
    name: z.string(),
    email: z.email().optional(),
    phone: z.string().optional(),
    dateOfBirth: z.iso.date(),
    address: Address,
  })
  .meta({ id: 'CustomerInfo' });
