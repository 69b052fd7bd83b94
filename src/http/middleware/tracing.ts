/**
 * With tracing on (docs/tracing.md: Tracing), every request — on /v1 and on the control plane — runs
 * in a SERVER span that continues the caller's `traceparent` or starts a trace, named `METHOD
 * /route` once routing is done, with OpenTelemetry's HTTP attributes, the programme and the
 * `Request-Id`. What the request changes and the jobs it schedules are told to that span, and the
 * webhooks it causes continue its trace. Off, this middleware is not mounted at all.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Tracing } from '../../kernel/tracing.js';
import type { AppEnv } from '../env.js';

/** The route the request was answered by, as the reference writes paths (`/v1/customers/{customerId}`); undefined when none matched. */
function routeOf(c: Context<AppEnv>): string | undefined {
  const route = matchedRoutes(c).findLast((r) => r.method !== 'ALL' && !r.path.endsWith('*'));
  return route?.path.replace(/:(\w+)/g, '{$1}');
}

export function traceRequests(tracing: Tracing): MiddlewareHandler<AppEnv> {
  return (c, next) =>
    tracing.request(c.req.method, c.req.path, { traceparent: c.req.header('traceparent'), tracestate: c.req.header('tracestate') }, async (span) => {
      try {
        await next();
      } finally {
        span.end(routeOf(c), c.res.status, {
          'card_sandbox.programme': c.get('programme')?.id,
          'card_sandbox.request_id': c.get('requestId'),
        });
      }
    });
}
