/**
 * Input for the control plane: its JSON bodies and query strings checked against zod schemas,
 * every failure a 400 problem naming the field (the same funnel as /v1).
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../env.js';
import { readJson, validationError } from '../errors.js';

/** The request body parsed as JSON (`{}` when there is none). */
export function jsonOf(c: Context<AppEnv>): unknown {
  const raw = c.get('rawBody');
  if (!raw || raw.length === 0) return {};
  return readJson(Buffer.from(raw).toString('utf8'));
}

export function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}
