/**
 * The programme's events through the control plane (docs/companion.md: Helpers for your tests): listed, and
 * awaited. `waitFor` opens the live stream first and then reads what already happened, so that an
 * event committed in between is not missed, and checks the oldest first.
 */
import type { WebhookEvent, WebhookEventType } from '../client/webhook-event.js';
import type { ControlClient } from '../client/control.js';
import type { DeliverySummary } from '../client/control.generated.js';
import { sseParser, type SseMessage } from '../kernel/sse.js';
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

/**
 * The stream's messages, a batch for each chunk read (the first is the `: connected` comment
 * alone, or with what followed it at once), parsed by the one SSE reader.
 */
async function* batches(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage[]> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const parsed: SseMessage[] = [];
  const feed = sseParser((message) => parsed.push(message));
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    feed(value);
    yield parsed.splice(0);
  }
}

export function sandboxEvents(control: ControlClient): SandboxEvents {
  const list = <T extends WebhookEventType>(filter: EventFilter<T> = {}, signal?: AbortSignal) => {
    return control.listEvents(filter, { signal }) as Promise<ListedEvent<T>[]>;
  };

  return {
    list: (filter) => list(filter),

    async waitFor<T extends WebhookEventType>(type: T, predicate?: EventPredicate<T>, { timeout = DEFAULT_TIMEOUT_MS }: WaitOptions = {}) {
      const matches = (body: WebhookEvent<T>) => predicate === undefined || predicate(body);
      const seen: unknown[] = [];
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), timeout);
      try {
        const stream = batches((await control.open('streamEvents', { type }, { signal: abort.signal })).body!);
        // The stream's first chunk says it is open: from here on no event can be missed.
        const first = await stream.next();
        for (const { deliveries: _, ...event } of (await list({ type, limit: 1000 }, abort.signal)).reverse()) {
          seen.push(event.body);
          if (matches(event.body)) return event;
        }
        const later = async function* () {
          if (!first.done) yield first.value;
          yield* stream;
        };
        for await (const batch of later()) {
          for (const message of batch) {
            if (message.event !== 'event') continue;
            const { kind: _, ...event } = JSON.parse(message.data) as SandboxEvent<T> & { kind: string };
            seen.push(event.body);
            if (matches(event.body)) return event;
          }
        }
        throw new Error('the sandbox closed the event stream');
      } catch (error) {
        if (!abort.signal.aborted) throw error;
        const clock = await control.getClock().catch(() => undefined);
        const hint = clock?.frozen ? '; the sandbox clock is frozen, so what falls due later needs clock.advance()' : '';
        throw new WaitTimeoutError(`timed out after ${timeout} ms waiting for ${awaited(type, predicate)}: ${arrived(type, seen)}${hint}`);
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
    },
  };
}
