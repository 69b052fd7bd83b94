/**
 * The programme's events through the control plane (README: Helpers for your tests): listed, and
 * awaited. `waitFor` opens the live stream first and then reads what already happened, so that an
 * event committed in between is not missed, and checks the oldest first.
 */
import type { WebhookEvent, WebhookEventType } from '../client/webhook-event.js';
import type { DeliverySummary } from '../services/sandbox-events.js';
import type { ControlPlane } from './control.js';
import { arrived, awaited, DEFAULT_TIMEOUT_MS, WaitTimeoutError, type EventPredicate, type WaitOptions } from './waiting.js';

/** An event as the sandbox keeps it; `body` is the webhook body exactly as sent. */
export interface SandboxEvent<T extends WebhookEventType = WebhookEventType> {
  id: string;
  type: T;
  entityId: string;
  createdAt: string;
  body: WebhookEvent<T>;
}

/** A delivery of an event, as the control plane lists it. */
export type DeliveryState = DeliverySummary;

export interface ListedEvent<T extends WebhookEventType = WebhookEventType> extends SandboxEvent<T> {
  deliveries: DeliveryState[];
}

export interface EventFilter<T extends WebhookEventType = WebhookEventType> {
  type?: T;
  entityId?: string;
  /** 1–1000; 100 by default. */
  limit?: number;
  /** Only events older than this one. */
  before?: string;
}

export interface SandboxEvents {
  /** Newest first, as GET /_sandbox/events answers. */
  list<T extends WebhookEventType = WebhookEventType>(filter?: EventFilter<T>): Promise<ListedEvent<T>[]>;
  /** The oldest event of `type` (matching `predicate`) that happened or happens within the timeout. */
  waitFor<T extends WebhookEventType>(type: T, predicate?: EventPredicate<T>, options?: WaitOptions): Promise<SandboxEvent<T>>;
}

interface Frame {
  event?: string;
  data?: string;
}

/** Server-Sent Events frames (WHATWG HTML §9.2.6), enough of the format for the sandbox's stream. */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replaceAll('\r\n', '\n');
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const frame: Frame = {};
      for (const line of buffer.slice(0, end).split('\n')) {
        const [, field, text] = /^([^:]*):? ?(.*)$/.exec(line) ?? [];
        if (field === 'event') frame.event = text;
        if (field === 'data') frame.data = frame.data === undefined ? text : `${frame.data}\n${text}`;
      }
      buffer = buffer.slice(end + 2);
      yield frame;
    }
  }
}

export function sandboxEvents(control: ControlPlane): SandboxEvents {
  const list = <T extends WebhookEventType>(filter: EventFilter<T> = {}, signal?: AbortSignal) => {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)]));
    return control<ListedEvent<T>[]>('GET', `/events${query.size > 0 ? `?${query}` : ''}`, undefined, signal);
  };

  return {
    list: (filter) => list(filter),

    async waitFor<T extends WebhookEventType>(type: T, predicate?: EventPredicate<T>, { timeout = DEFAULT_TIMEOUT_MS }: WaitOptions = {}) {
      const matches = (body: WebhookEvent<T>) => predicate === undefined || predicate(body);
      const seen: unknown[] = [];
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), timeout);
      try {
        const stream = frames((await control.open(`/events/stream?type=${encodeURIComponent(type)}`, abort.signal)).body!);
        // The stream's first frame says it is open: from here on no event can be missed.
        await stream.next();
        for (const { deliveries: _, ...event } of (await list({ type, limit: 1000 }, abort.signal)).reverse()) {
          seen.push(event.body);
          if (matches(event.body)) return event;
        }
        for await (const frame of stream) {
          if (frame.event !== 'event' || frame.data === undefined) continue;
          const { kind: _, ...event } = JSON.parse(frame.data) as SandboxEvent<T> & { kind: string };
          seen.push(event.body);
          if (matches(event.body)) return event;
        }
        throw new Error('the sandbox closed the event stream');
      } catch (error) {
        if (!abort.signal.aborted) throw error;
        const clock = await control<{ frozen: boolean }>('GET', '/clock').catch(() => undefined);
        const hint = clock?.frozen ? '; the sandbox clock is frozen, so what falls due later needs clock.advance()' : '';
        throw new WaitTimeoutError(`timed out after ${timeout} ms waiting for ${awaited(type, predicate)}: ${arrived(type, seen)}${hint}`);
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
    },
  };
}
