/**
 * /_sandbox/events: the outbox as an integrator debugs it — events newest first with their
 * deliveries, one event with its body and every attempt, a resend of one event or of every event
 * of a window, and a live Server-Sent Events stream (WHATWG HTML §9.2) of committed events and
 * delivery attempt outcomes.
 */
import { z } from 'zod';
import { iso } from '../../domain/instant.js';
import { Uuid } from '../../domain/formats.js';
import type { EventRecord } from '../../services/outbox.js';
import type { AttemptReport } from '../../webhooks/dispatcher.js';
import {
  EventDetail,
  EventListQuery,
  EventResent,
  EventStreamQuery,
  EventSummary,
  ResendWindow,
  StreamedAttempt,
  StreamedEvent,
  WindowResent,
} from '../../wire/outbox.js';
import { controlRoute } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { servicesOf } from '../env.js';
import { jsonResponse, problem } from '../schemas.js';
import { sseStream, STREAM_HEADERS } from './sse.js';
import { answer } from '../answer.js';

const EventParam = z.object({ eventId: Uuid });

const streamedEvent = (e: EventRecord): StreamedEvent => ({
  kind: 'event',
  id: e.id,
  type: e.type,
  entityId: e.entityId,
  createdAt: iso(e.createdAt),
  body: JSON.parse(e.body) as unknown,
});

const streamedAttempt = ({ at, nextAttemptAt, ...report }: AttemptReport): StreamedAttempt => ({
  kind: 'attempt',
  ...report,
  at: iso(at),
  ...(nextAttemptAt !== undefined ? { nextAttemptAt: iso(nextAttemptAt) } : {}),
});

const tags: [string] = ['Events'];
const notFound = { 404: problem('No such event') };

export function controlEventRoutes(control: ControlPlane): void {
  controlRoute(
    control,
    {
      method: 'get',
      path: '/events',
      operationId: 'listEvents',
      summary: 'Events newest first, with their deliveries',
      tags,
      query: EventListQuery,
      responses: { 200: jsonResponse(z.array(EventSummary)), 404: problem('`before` names no event of the programme') },
    },
    (c, { query }) => answer(c, servicesOf(c).sandboxEvents.list(query)),
  );

  // Declared before /events/{eventId}, which would otherwise refuse "stream" as not a UUID.
  controlRoute(
    control,
    {
      method: 'get',
      path: '/events/stream',
      operationId: 'streamEvents',
      tags,
      query: EventStreamQuery,
      summary: 'Server-Sent Events: `event` for each committed event, `attempt` for each delivery attempt',
      responses: {
        200: {
          description: 'A stream of `event` and `attempt` messages',
          headers: STREAM_HEADERS,
          content: { 'text/event-stream': { schema: z.union([StreamedEvent, StreamedAttempt]) } },
        },
      },
    },
    (c, { query: filter }) => {
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
    },
  );

  controlRoute(
    control,
    {
      method: 'post',
      path: '/events/resend',
      operationId: 'resendEvents',
      summary: 'Send again every event of a window of sandbox time and/or of a type, oldest first',
      tags,
      body: ResendWindow,
      responses: { 202: jsonResponse(WindowResent) },
    },
    (c, { body }) => answer(c, servicesOf(c).webhooks.resendWindow(body), 202),
  );

  controlRoute(
    control,
    {
      method: 'get',
      path: '/events/{eventId}',
      operationId: 'getEvent',
      summary: 'One event with its body and every attempt of each delivery',
      tags,
      params: EventParam,
      responses: { 200: jsonResponse(EventDetail), ...notFound },
    },
    (c, { params }) => answer(c, servicesOf(c).sandboxEvents.get(params.eventId)),
  );

  controlRoute(
    control,
    {
      method: 'post',
      path: '/events/{eventId}/resend',
      operationId: 'resendEvent',
      summary: 'Send one event again to every subscription of its type',
      tags,
      params: EventParam,
      responses: { 202: jsonResponse(EventResent), ...notFound },
    },
    (c, { params: { eventId } }) => answer(c, { eventId, deliveries: servicesOf(c).webhooks.resend(eventId) }, 202),
  );
}
