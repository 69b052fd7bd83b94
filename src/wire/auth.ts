/** Access tokens on the wire (docs/signatures.md: Tokens and credentials). */
import { z } from 'zod';

export const Token = z.object({ token: z.string(), expiresAt: z.number().int(), tokenType: z.literal('Bearer') }).meta({ id: 'Authentication' });
export type Token = z.infer<typeof Token>;
