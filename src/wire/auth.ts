/** Access tokens on the wire, and the credentials and signing keys /v1/auth takes (docs/signatures.md: Tokens and credentials). */
import { z } from 'zod';
import { Uuid } from '../domain/formats.js';

export const Token = z.object({ token: z.string(), expiresAt: z.number().int(), tokenType: z.literal('Bearer') }).meta({ id: 'Authentication' });
export type Token = z.infer<typeof Token>;

/** POST /v1/auth/token and PUT /v1/auth/credentials. */
export const Credentials = z.object({ apiKey: Uuid, apiSecret: z.string() });
export type Credentials = z.infer<typeof Credentials>;

/** DELETE /v1/auth/credentials. */
export const CredentialKey = z.object({ apiKey: Uuid });

/** PUT /v1/auth/signing. */
export const SigningKey = z.object({
  signingKeyId: Uuid,
  signingKey: z.string().meta({ format: 'byte', description: 'Base64 of the PEM text of an ECDSA P-384 public key' }),
});

/** DELETE /v1/auth/signing. */
export const SigningKeyId = z.object({ signingKeyId: Uuid });
