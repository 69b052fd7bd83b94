/**
 * A webhook attempt's CLIENT span (docs/tracing.md: Tracing): in the trace of the request or job that
 * wrote the event, whenever the attempt is made — at once, on a retry after time travel, after a
 * restart — since the event keeps that trace's `traceparent`. The attempt carries its span's own
 * `traceparent`, so that the receiver's tracing continues the same trace. An attempt the delivery
 * lab answers in the receiver's place has its span too, with the fault that stood in for it.
 */
import { iso } from '../domain/instant.js';
import type { DeliveryCore } from './delivery-rows.js';
import { isSuccess, type Due, type Outcome } from './attempt-shapes.js';

/** The callback URL as a span shows it: credentials in it are not (OpenTelemetry's `url.full`). */
function shownUrl(callbackUrl: string): string {
  const url = new URL(callbackUrl);
  if (url.username === '' && url.password === '') return callbackUrl;
  url.username = 'REDACTED';
  url.password = url.password === '' ? '' : 'REDACTED';
  return url.href;
}

/** Runs one attempt (`send`, handed the span's traceparent) in its span; without tracing, only runs it. */
export async function tracedAttempt(
  { tracing, programme }: Pick<DeliveryCore, 'tracing' | 'programme'>,
  due: Due,
  attempt: number,
  at: number,
  send: (traceparent: string | undefined) => Promise<Outcome>,
): Promise<Outcome> {
  if (!tracing) return send(undefined);
  const span = tracing.attempt(`webhook ${due.type}`, due.traceParent ?? undefined, {
    'http.request.method': 'POST',
    'url.full': shownUrl(due.callbackUrl),
    'card_sandbox.programme': programme,
    'card_sandbox.webhook.type': due.type,
    'card_sandbox.webhook.attempt': attempt,
    'card_sandbox.webhook.event_id': due.eventId,
    'card_sandbox.webhook.delivery_id': due.id,
    'card_sandbox.webhook.subscription_id': due.webhookId,
    'card_sandbox.time': iso(at),
    ...(attempt > 1 && { 'http.request.resend_count': attempt - 1 }),
  });
  const outcome = await send(span.traceparent);
  span.end(
    {
      'http.response.status_code': outcome.statusCode,
      'card_sandbox.webhook.fault': outcome.fault,
      'card_sandbox.webhook.forgery': outcome.forgery,
      'card_sandbox.webhook.duration_ms': outcome.durationMs,
    },
    isSuccess(outcome) ? undefined : (outcome.error ?? `answered ${outcome.statusCode}`),
  );
  return outcome;
}
