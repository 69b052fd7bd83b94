/**
 * /_sandbox/events: the outbox as an integrator debugs it — events newest first with their
 * deliveries, one event with its body and every attempt, a resend of one event or of every event
 * of a window, and a live Server-Sent Events stream (WHATWG HTML §9.2) of committed events and
 * delivery attempt outcomes.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { iso, parseClockOption } from '../../clock.js';
import { WEBHOOK_TYPES } from '../../domain/events.js';
import type { EventRecord } from '../../services/events.js';
import type { AttemptReport } from '../../webhooks/dispatcher.js';
import { servicesOf, type AppEnv } from '../env.js';
import { Uuid } from '../../domain/formats.js';
import { jsonOf, parse } from './control-input.js';
import { sseStream } from './sse.js';

const MAX_EVENTS_PAGE = 1000;

const Filter = z.object({
  type: z.enum(WEBHOOK_TYPES, `must be one of ${WEBHOOK_TYPES.join(', ')}`).optional(),
  entityId: Uuid.optional(),
});
const ListQuery = Filter.extend({
  before: Uuid.optional(),
  limit: z.coerce
    .number(`must be an integer from 1 to ${MAX_EVENTS_PAGE}`)
    .int(`must be an integer from 1 to ${MAX_EVENTS_PAGE}`)
    .min(1, `must be an integer from 1 to ${MAX_EVENTS_PAGE}`)
    .max(MAX_EVENTS_PAGE, `must be an integer from 1 to ${MAX_EVENTS_PAGE}`)
    .default(100),
});
const EventParam = z.object({ eventId: Uuid });

/** An instant of sandbox time: an ISO 8601 date or date-time (UTC unless it has an offset). */
const Instant = z.string().transform((value, ctx) => {
  const at = value === 'now' ? undefined : parseClockOption(value, 0);
  if (at === undefined) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date or date-time, such as 2026-03-01T09:00:00Z' });
    return z.NEVER;
  }
  return at;
});
const ResendWindow = z
  .strictObject({ since: Instant.optional(), until: Instant.optional(), type: z.enum(WEBHOOK_TYPES).optional() })
  .superRefine((window, ctx) => {
    if (window.since === undefined && window.until === undefined && window.type === undefined) ctx.addIssue({ code: 'custom', message: 'give since, until or type: which events to send again' });
    if (window.since !== undefined && window.until !== undefined && window.until <= window.since) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be later than since' });
  });

/** What the stream sends for a committed event. */
export type StreamedEvent = ReturnType<typeof streamedEvent>;

const streamedEvent = (e: EventRecord) => ({
  kind: 'event' as const,
  id: e.id,
  type: e.type,
  entityId: e.entityId,
  createdAt: iso(e.createdAt),
  body: JSON.parse(e.body) as unknown,
});

/** What the stream sends for a delivery attempt's outcome. */
export type StreamedAttempt = ReturnType<typeof streamedAttempt>;

const streamedAttempt = ({ at, nextAttemptAt, ...report }: AttemptReport) => ({
  kind: 'attempt' as const,
  ...report,
  at: iso(at),
  ...(nextAttemptAt !== undefined ? { nextAttemptAt: iso(nextAttemptAt) } : {}),
});

export function controlEventRoutes(): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/', (c) => c.json(servicesOf(c).sandboxEvents.list(parse(ListQuery, c.req.query(), 'query parameters'))));

  // Declared before /:eventId, which would otherwise refuse "stream" as not a UUID.
  routes.get('/stream', (c) => {
    const filter = parse(Filter, c.req.query(), 'query parameters');
    const wanted = (type: string, entityId: string) => (!filter.type || filter.type === type) && (!filter.entityId || filter.entityId === entityId);
    const services = servicesOf(c);
    return sseStream(c, (send) => {
      const unsubscribeEvents = services.events.subscribe((e) => {
        if (wanted(e.type, e.entityId)) send('event', e.id, streamedEvent(e));
      });
      const unsubscribeAttempts = services.webhooks.onAttempt((report) => {
        if (wanted(report.type, report.entityId)) send('attempt', `${report.deliveryId}/${report.attempt}`, streamedAttempt(report));
      });
      return () => {
        unsubscribeEvents();
        unsubscribeAttempts();
      };
    });
  });

  routes.post('/resend', (c) => c.json(servicesOf(c).webhooks.resendWindow(parse(ResendWindow, jsonOf(c), 'body')), 202));

  routes.get('/:eventId', (c) => c.json(servicesOf(c).sandboxEvents.get(parse(EventParam, c.req.param(), 'path parameters').eventId)));

  routes.post('/:eventId/resend', (c) => {
    const { eventId } = parse(EventParam, c.req.param(), 'path parameters');
    return c.json({ eventId, deliveries: servicesOf(c).webhooks.resend(eventId) }, 202);
  });

  return routes;
}
