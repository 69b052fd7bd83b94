/**
 * Wallet ownership on the wire: a customer's CAIP-10 account id, the EIP-4361 challenge a customer
 * or account is given, and the signature that answers it (docs/api.md: Customers, accounts and cards).
 */
import { z } from 'zod';
import { BlockchainAccountId } from './scalars.js';

const base64 = (what: string) => z.string({ error: `must be ${what}` }).meta({ format: 'byte' });

export const OwnerChallenge = z
  .object({ challenge: base64('base64').meta({ description: 'Base64 of an EIP-4361 message for the owner to sign (EIP-191 personal_sign)' }) })
  .meta({ id: 'OwnerChallenge' });

export const OwnerSignature = z
  .object({
    ownerId: BlockchainAccountId,
    challenge: base64('the base64 challenge this sandbox issued'),
    signature: base64('base64 of the 65-byte r‖s‖v signature').meta({
      description: 'Base64 of the 65 bytes r‖s‖v (base64 of the 0x-hex text is accepted too)',
    }),
  })
  .meta({ id: 'OwnerSignature' });

export type OwnerSignature = z.infer<typeof OwnerSignature>;
