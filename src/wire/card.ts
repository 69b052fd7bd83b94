/** The Card resource: its wire shape and the mapping from its row (docs/api.md: Customers, accounts and cards). */
import { z } from 'zod';
import { iso } from '../domain/instant.js';
import { Address } from '../domain/address.js';
import { CARD_TYPES } from '../domain/card.js';
import type { cards } from '../store/schema.js';
import { AccountId, CardId, CardNetwork, CardStatus, CardType, DateTime } from './scalars.js';

export const Card = z
  .object({
    id: CardId,
    accountId: AccountId,
    type: CardType,
    name: z.string().optional(),
    network: CardNetwork.optional(),
    maskedPan: z.string().optional(),
    expirationDate: z.string().optional().meta({ description: 'MM/YYYY' }),
    // Always sent; optional as the service's document has it (docs/api.md: Where the sandbox differs from the service's document).
    billingAddress: Address.optional(),
    status: CardStatus,
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Card' });

export type Card = z.infer<typeof Card>;

/** POST /v1/accounts/{accountId}/cards. */
export const NewCard = z.object({
  type: z.enum(CARD_TYPES, { error: `must be ${CARD_TYPES.join(' or ')}` }),
  billingAddress: Address,
  shippingAddress: Address.optional().meta({ description: 'Required for physical cards' }),
});
export type NewCard = z.infer<typeof NewCard>;

/** In the reference's field order; what issuing fills in only once issued. */
export function toCard(row: typeof cards.$inferSelect): Card {
  return {
    id: row.id,
    accountId: row.accountId,
    type: row.type,
    ...(row.name !== null && { name: row.name }),
    ...(row.network !== null && { network: row.network }),
    ...(row.maskedPan !== null && { maskedPan: row.maskedPan }),
    ...(row.expirationDate !== null && { expirationDate: row.expirationDate }),
    billingAddress: row.billingAddress,
    status: row.status,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
