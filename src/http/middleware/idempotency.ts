/**
 * Idempotency-Key handling on /v1 mutations outside /auth (docs/signatures.md: Idempotency). Applies whenever a valid
 * key is sent, whatever the --verify mode.
 */
import { SandboxError } from '../../domain/errors.js';
import { BODILESS_STATUSES, KEPT_HEADERS, MUTATIONS } from '../../domain/idempotency.js';
import { fingerprint } from '../../services/idempotency.js';
import { Uuid } from '../../domain/formats.js';
import { servicesOf, targetOf } from '../env.js';
import type { Stage } from '../pipeline.js';

export function idempotentRequests(): Stage {
  const run: Stage['run'] = async (c, next) => {
    const key = c.req.header('Idempotency-Key');
    if (key === undefined || !Uuid.safeParse(key).success) return next();
    const { idempotency } = servicesOf(c);
    const scope = c.get('apiKey');
    const claim = idempotency.claim(scope, key.toLowerCase(), fingerprint(c.req.method, targetOf(c), c.get('rawBody')));
    switch (claim.kind) {
      case 'reused':
        throw new SandboxError(
          'idempotency_key_reused',
          `Idempotency-Key ${key} was already used for a different request (method, path or body differ); use a new key`,
        );
      case 'in_flight':
        throw new SandboxError('idempotency_in_flight', `a request with Idempotency-Key ${key} is still being handled; retry when it has finished`);
      case 'replay':
        c.set('replayed', true);
        return new Response(BODILESS_STATUSES.has(claim.status) ? null : claim.body, {
          status: claim.status,
          headers: { ...claim.headers, 'Idempotent-Replayed': 'true' },
        });
    }
    let stored = false;
    try {
      await next();
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = c.res.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      // JSON answers and problems are kept as they are made (answer.ts); anything else (a 204) is read back.
      const answer = c.get('answer') ?? (c.res.body === null ? '' : await c.res.clone().text());
      idempotency.complete(scope, key.toLowerCase(), c.res.status, headers, answer);
      stored = true;
    } finally {
      if (!stored) idempotency.release(scope, key.toLowerCase());
    }
  };
  return { needed: (c) => MUTATIONS.has(c.req.method), run };
}
