/**
 * A stand-in /v1 resource for testing the request pipeline (authentication, verification,
 * idempotency, errors) apart from any real resource: `POST /v1/probes` records one effect per
 * handled request and can be held in flight or made to fail; `GET` and `DELETE /v1/probes/{probeId}`
 * declare a UUID path id (DELETE records an effect and answers 204). The routes are /v1 operations:
 * they meet what every operation outside /auth does (http/api-groups.ts). Not shipped.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { apiGroups } from '../http/api-groups.js';
import { idParam, jsonBody, jsonResponse, standardProblems } from '../http/schemas.js';
import type { TestSandbox } from './harness.js';
import { answer } from '../http/answer.js';

export interface Probes {
  /** One entry per request the handler ran, in order: the parsed body. */
  readonly effects: unknown[];
  /** Makes POST handlers wait until `release()`; `entered` resolves when the first one is waiting. */
  hold(): { release: () => void; entered: Promise<void> };
  /** Makes the next POST answer 500 (an unexpected failure) after recording nothing. */
  failNext(): void;
}

const ProbeBody = z.object({ name: z.string().min(1), size: z.number().int().positive() });

export function mountProbeRoutes(sandbox: TestSandbox): Probes {
  const effects: unknown[] = [];
  let gate: Promise<void> | undefined;
  let onEnter: (() => void) | undefined;
  let failing = false;
  const probes = apiGroups(sandbox.deps, () => undefined).operations;

  probes.openapi(
    createRoute({
      method: 'post',
      path: '/probes',
      request: { body: jsonBody(ProbeBody) },
      responses: { 201: jsonResponse(z.object({ n: z.number() })), ...standardProblems },
    }),
    async (c) => {
      const body = c.req.valid('json');
      onEnter?.();
      // Yield before the effect, as a handler that awaits I/O would: concurrent duplicates overlap here.
      await (gate ?? Promise.resolve());
      if (failing) {
        failing = false;
        throw new Error('probe failure');
      }
      effects.push(body);
      return answer(c, { n: effects.length }, 201, { Location: `/v1/probes/${effects.length}` });
    },
  );
  probes.openapi(
    createRoute({
      method: 'get',
      path: '/probes/{probeId}',
      request: { params: idParam('probeId') },
      responses: { 200: jsonResponse(z.object({ id: z.string() })), ...standardProblems },
    }),
    (c) => answer(c, { id: c.req.valid('param').probeId }, 200),
  );
  probes.openapi(
    createRoute({
      method: 'delete',
      path: '/probes/{probeId}',
      request: { params: idParam('probeId') },
      responses: { 204: { description: 'Deleted' }, ...standardProblems },
    }),
    (c) => {
      effects.push({ deleted: c.req.valid('param').probeId });
      return c.body(null, 204);
    },
  );
  sandbox.app.route('/v1', probes);

  return {
    effects,
    hold() {
      let release!: () => void;
      const entered = new Promise<void>((resolve) => (onEnter = resolve));
      gate = new Promise((resolve) => (release = resolve));
      return {
        entered,
        release: () => {
          gate = onEnter = undefined;
          release();
        },
      };
    },
    failNext() {
      failing = true;
    },
  };
}
