/**
 * The control plane's optional guard: with `--admin-token`, every /_sandbox/* request must carry
 * `Authorization: Bearer <token>` (RFC 6750 §2.1). Without it the control plane is open, which
 * is meant for a sandbox bound to loopback.
 */
import type { MiddlewareHandler } from 'hono';
import { createHash, timingSafeEqual } from 'node:crypto';
import { SandboxError } from '../../domain/errors.js';
import type { AppEnv } from '../env.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function requireAdminToken(adminToken: string | undefined): MiddlewareHandler<AppEnv> {
  if (adminToken === undefined) return (_c, next) => next();
  // Comparing fixed-length digests keeps the comparison constant-time whatever was sent.
  const expected = digest(adminToken);
  return async (c, next) => {
    const match = /^Bearer (.+)$/i.exec(c.req.header('Authorization') ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      throw new SandboxError('not_authorised', 'the control plane requires Authorization: Bearer <admin token> (the sandbox was started with --admin-token)');
    }
    return next();
  };
}
