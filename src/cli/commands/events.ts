/**
 * `events list|show|tail|resend`: the outbox from the terminal — what happened, what was sent
 * where, each delivery attempt's outcome (its fault, and what the receiver answered) as it
 * happens, and sending one event or a window of them again.
 */
import type { WebhookType } from '../../domain/outbox.js';
import type { CommandContext } from '../client.js';
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

export async function listEvents(
  { client, io, json }: CommandContext,
  options: EventFilterOptions & { limit?: number | undefined; before?: string | undefined },
): Promise<void> {
  const events = await client.listEvents({
    type: options.type as WebhookType | undefined,
    entityId: options.entity,
    limit: options.limit,
    before: options.before,
  });
  if (json) return io.json(events);
  if (events.length === 0) return io.out(io.color.dim('no events yet'));
  io.table(
    ['CREATED', 'TYPE', 'ENTITY', 'EVENT', 'DELIVERIES'],
    events.map((e) => [e.createdAt, e.type, e.entityId, e.id, deliveriesText(io, e.deliveries)]),
  );
}

export async function showEvent({ client, io, json }: CommandContext, eventId: string): Promise<void> {
  const event = await client.getEvent(eventId);
  if (json) return io.json(event);
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
}

export interface ResendWindowOptions {
  since?: string | undefined;
  until?: string | undefined;
  type?: string | undefined;
}

/** Every event (still kept) of a window of sandbox time and/or of a type, sent again oldest first. */
export async function resendWindow({ client, io, json }: CommandContext, options: ResendWindowOptions): Promise<void> {
  const body = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  // Nothing given: the sandbox's refusal says what to give.
  const result = await client.resendEvents(body as Parameters<typeof client.resendEvents>[0]);
  if (json) return io.json(result);
  if (result.events === 0) return io.out(`${io.color.yellow('!')} no event matches: nothing to resend`);
  const queued = result.deliveries.length;
  io.out(
    `${io.color.green('✓')} ${result.events} event${result.events === 1 ? '' : 's'} queued again: ${queued} deliver${queued === 1 ? 'y' : 'ies'}${queued === 0 ? io.color.dim(' (no webhook is subscribed to their types now)') : ''}`,
  );
}

export async function resendEvent({ client, io, json }: CommandContext, eventId: string): Promise<void> {
  const result = await client.resendEvent(eventId);
  if (json) return io.json(result);
  if (result.deliveries.length === 0) return io.out(`${io.color.yellow('!')} no webhook is subscribed to this event's type now: nothing to resend`);
  io.out(`${io.color.green('✓')} event ${io.color.bold(eventId)} queued again for ${result.deliveries.map((d) => d.callbackUrl).join(', ')}`);
}

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
