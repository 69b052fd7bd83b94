/**
 * `events list|show|tail|resend`: the outbox from the terminal — what happened, what was sent
 * where, each delivery attempt's outcome (its fault, and what the receiver answered) as it
 * happens, and sending one event or a window of them again.
 */
import type { WebhookType } from '../../domain/outbox.js';
import { z } from 'zod';
import type { Client, CommandContext } from '../client.js';
import { command, group, positiveInt, printed, tool, UsageError } from '../command.js';
import type { Io } from '../io.js';
import { answerLine, answerLines, faultTag, outcome } from './attempts.js';
import type { DeliverySummary as Delivery, StreamedAttempt } from '../../client/control.generated.js';

export interface EventFilterOptions {
  type?: string | undefined;
  entity?: string | undefined;
}

const deliveriesText = (io: Io, deliveries: Delivery[]) => {
  if (deliveries.length === 0) return io.color.dim('none');
  const counts = new Map<string, number>();
  for (const d of deliveries) counts.set(d.status, (counts.get(d.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${io.status(status)}`).join(', ');
};

/** The entity's status, when its body has one (every resource does). */
const bodyStatus = (body: unknown) => {
  const status = (body as { status?: unknown } | undefined)?.status;
  return typeof status === 'string' ? status : undefined;
};

export interface ListEventsOptions extends EventFilterOptions {
  limit?: number | undefined;
  before?: string | undefined;
}

export const listEvents = printed(
  (client: Client, options: ListEventsOptions) =>
    client.listEvents({ type: options.type as WebhookType | undefined, entityId: options.entity, limit: options.limit, before: options.before }),
  ({ io }, events) => {
    if (events.length === 0) return io.out(io.color.dim('no events yet'));
    io.table(
      ['CREATED', 'TYPE', 'ENTITY', 'STATUS', 'EVENT', 'DELIVERIES'],
      events.map((e) => [e.createdAt, e.type, e.entityId, io.status(bodyStatus(e.body) ?? ''), e.id, deliveriesText(io, e.deliveries)]),
    );
  },
);

export const showEvent = printed(
  (client: Client, eventId: string) => client.getEvent(eventId),
  ({ io }, event) => {
    const c = io.color;
    io.out(`${c.bold(event.type)} ${event.entityId} ${c.dim(`event ${event.id} at ${event.createdAt}`)}`);
    io.out(JSON.stringify(event.body, null, 2));
    if (event.deliveries.length === 0) return io.out(c.dim('\nno deliveries: no webhook was subscribed to this type when it happened'));
    for (const d of event.deliveries) {
      const next = d.paused ? c.yellow(', paused') : d.nextAttemptAt ? c.dim(`, next attempt at ${d.nextAttemptAt}`) : '';
      io.out(
        `\n${c.bold('delivery')} ${d.id} → ${d.callbackUrl} ${io.status(d.status)} ${c.dim(`after ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`)}${next}`,
      );
      if (!d.history.length) continue;
      const faults = d.history.some((a) => a.fault);
      const headers = ['#', 'AT', 'OUTCOME', 'MS', ...(faults ? ['FAULT'] : [])];
      io.table(
        headers,
        d.history.map((a) => [String(a.attempt), a.at, outcome(io, a), String(a.durationMs), ...(faults ? [a.fault ?? ''] : [])]),
      );
      for (const a of d.history) for (const line of answerLines(io, a)) io.out(line);
    }
  },
);

export interface ResendWindowOptions {
  since?: string | undefined;
  until?: string | undefined;
  type?: string | undefined;
}

/** Every event (still kept) of a window of sandbox time and/or of a type, sent again oldest first. */
export const resendWindow = printed(
  // Nothing given: the sandbox's refusal says what to give.
  (client: Client, options: ResendWindowOptions) =>
    client.resendEvents(Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Parameters<Client['resendEvents']>[0]),
  ({ io }, result) => {
    if (result.events === 0) return io.out(`${io.color.yellow('!')} no event matches: nothing to resend`);
    const queued = result.deliveries.length;
    io.out(
      `${io.color.green('✓')} ${result.events} event${result.events === 1 ? '' : 's'} queued again: ${queued} deliver${queued === 1 ? 'y' : 'ies'}${queued === 0 ? io.color.dim(' (no webhook is subscribed to their types now)') : ''}`,
    );
  },
);

export const resendEvent = printed(
  (client: Client, eventId: string) => client.resendEvent(eventId),
  ({ io }, result, eventId) => {
    if (result.deliveries.length === 0) return io.out(`${io.color.yellow('!')} no webhook is subscribed to this event's type now: nothing to resend`);
    io.out(`${io.color.green('✓')} event ${io.color.bold(eventId)} queued again for ${result.deliveries.map((d) => d.callbackUrl).join(', ')}`);
  },
);

/**
 * Follows the stream until `signal` aborts (Ctrl-C) or the sandbox stops; `onOpen` runs once it is
 * following. Prints each event and each delivery attempt's outcome, fault and answer; with --json,
 * one JSON object per line.
 */
export async function tailEvents({ client, io, json }: CommandContext, options: EventFilterOptions, signal?: AbortSignal, onOpen?: () => void): Promise<void> {
  const c = io.color;
  await client.follow(
    'streamEvents',
    { type: options.type as WebhookType | undefined, entityId: options.entity },
    {
      signal,
      onMessage: (message) => {
        const data = JSON.parse(message.data) as Record<string, unknown>;
        if (json) return io.json(data, true);
        if (message.event === 'event') {
          const status = bodyStatus(data.body);
          io.out(
            `${c.dim(String(data.createdAt))} ${c.bold(String(data.type))} ${data.entityId}${status ? ` ${io.status(status)}` : ''} ${c.dim(`event ${data.id}`)}`,
          );
        } else if (message.event === 'attempt') {
          const a = data as unknown as StreamedAttempt;
          const next = a.paused ? c.yellow(', paused') : a.nextAttemptAt ? c.dim(`, retry at ${a.nextAttemptAt}`) : '';
          const tag = faultTag(io, a);
          io.out(
            `${c.dim(a.at)}   ↳ ${a.callbackUrl} attempt ${a.attempt}: ${outcome(io, a)}${tag ? ` ${tag}` : ''} ${c.dim(`${a.durationMs}ms`)} → ${io.status(a.status)}${next} ${c.dim(`event ${a.eventId}`)}`,
          );
          const answer = answerLine(a);
          if (answer) io.out(`${' '.repeat(a.at.length)}     ${c.dim(`answered ${answer}`)}`);
        }
      },
      // On stderr, so that --json output stays clean; once connected, so that it also says "ready".
      onOpen: () => {
        io.err(c.dim(`following events at ${client.url} (Ctrl-C to stop)`));
        onOpen?.();
      },
    },
  );
  if (!signal?.aborted) io.err(c.dim('the sandbox closed the stream (it stopped)'));
}

const FILTERS = [
  { flags: '--type <type>', description: 'only this event type, e.g. card.updated' },
  { flags: '--entity <id>', description: 'only events of this customer, account, card, authorisation or transaction' },
];

export const eventsCommands = [
  group('events', 'Events and their webhook deliveries (list, show, tail, resend)'),
  command<ListEventsOptions>({
    name: 'events list',
    description: "List events, newest first, with the entity's status each carried and the state of their deliveries",
    examples: ['events list', 'events list --type card.updated --limit 20', 'events list --entity <cardId> --json'],
    isDefault: true,
    options: [
      ...FILTERS,
      { flags: '--limit <n>', description: 'at most this many (default 100, at most 1000)', parse: positiveInt('--limit') },
      { flags: '--before <eventId>', description: 'only events older than this one (the next page)' },
    ],
    run: (flags) => (ctx) => listEvents(ctx, flags),
    tool: tool({
      description: "The programme's events, newest first, each with its webhook body and deliveries.",
      input: {
        type: z.string().optional().describe('customer.updated, card.updated…'),
        entityId: z.string().optional(),
        limit: z.number().int().optional(),
        before: z.string().optional().describe('an event id: page backwards'),
      },
      data: (client, { type, entityId, limit, before }) => listEvents.data(client, { type, entity: entityId, limit, before }),
    }),
  }),
  command({
    name: 'events show',
    args: '<eventId>',
    description: 'Show an event: its body and every delivery attempt',
    examples: ['events show <eventId>'],
    run: (_flags, eventId) => (ctx) => showEvent(ctx, eventId),
    tool: tool({
      description: 'One event: its body, its deliveries and every attempt.',
      input: { eventId: z.string().describe("the event's id") },
      data: (client, { eventId }) => showEvent.data(client, eventId),
    }),
  }),
  command<EventFilterOptions>({
    name: 'events tail',
    description: 'Follow events and delivery outcomes as they happen (Ctrl-C to stop)',
    examples: ['events tail', 'events tail --type card.updated', 'events tail --json | jq .'],
    options: FILTERS,
    run: (flags) => (ctx) => {
      const abort = new AbortController();
      process.once('SIGINT', () => abort.abort());
      return tailEvents(ctx, flags, abort.signal);
    },
  }),
  command<ResendWindowOptions>({
    name: 'events resend',
    args: '[eventId]',
    description: 'Deliver an event again, or every event of a window and/or type, to the webhooks subscribed to its type now',
    examples: ['events resend <eventId>', 'events resend --since 2026-03-01T09:00:00Z --until 2026-03-01T10:00:00Z', 'events resend --type card.updated'],
    options: [
      { flags: '--since <instant>', description: 'every event from this instant of sandbox time (ISO 8601)' },
      { flags: '--until <instant>', description: 'every event before this instant' },
      { flags: '--type <type>', description: 'every event of this type, e.g. card.updated' },
    ],
    run: (flags, eventId?: string) => {
      const window = flags.since !== undefined || flags.until !== undefined || flags.type !== undefined;
      if ((eventId === undefined) === !window) throw new UsageError('give an event id, or --since, --until and/or --type');
      return (ctx) => (eventId !== undefined ? resendEvent(ctx, eventId) : resendWindow(ctx, { since: flags.since, until: flags.until, type: flags.type }));
    },
    tool: tool({
      description: 'Queue an event (eventId), or every event of a window (since, until, type), for delivery again.',
      input: { eventId: z.string().optional(), since: z.string().optional(), until: z.string().optional(), type: z.string().optional() },
      data: (client, { eventId, ...window }) => (eventId !== undefined ? resendEvent.data(client, eventId) : resendWindow.data(client, window)),
    }),
  }),
];
