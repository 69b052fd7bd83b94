/**
 * The RFC 9457 problem every error answers with (docs/api.md: Errors): `type, title, status, detail,
 * code, requestId`, and `errors[]` naming each bad field of a validation failure.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../domain/errors.js';

export const FieldError = z.object({ path: z.string(), message: z.string() });

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(ERROR_CODES),
    requestId: z.string(),
    errors: z.array(FieldError).optional(),
  })
  .meta({ id: 'Problem' });

export type Problem = z.infer<typeof Problem>;
