/**
 * Webhook deliveries at a glance (docs/inspector.md: The inspector): each delivery's state as the page marks
 * it — delivered, pending (not tried yet), retrying (tried and failed, more attempts to come),
 * paused, or failed (given up: discarded) — an event's worst, and a delivery attempt applied to the
 * events on screen.
 */
import type { AttemptMessage, Delivery, Event } from './api-types.js';

export type DeliveryState = 'delivered' | 'pending' | 'retrying' | 'paused' | 'failed';

export function deliveryState(d: Delivery): DeliveryState {
  if (d.status === 'delivered') return 'delivered';
  if (d.status === 'discarded') return 'failed';
  if (d.paused) return 'paused';
  return d.attempts > 0 ? 'retrying' : 'pending';
}

const WORST_FIRST: DeliveryState[] = ['failed', 'retrying', 'paused', 'pending', 'delivered'];

/** The worst state among an event's deliveries; `none` when no webhook was subscribed to it. */
export function eventState(deliveries: Delivery[]): DeliveryState | 'none' {
  const states = new Set(deliveries.map(deliveryState));
  return WORST_FIRST.find((s) => states.has(s)) ?? 'none';
}

/** Whether a delivery needs looking at: it failed at least once and is not delivered. */
export const failing = (d: Delivery) => d.status !== 'delivered' && d.attempts > 0;

/**
 * The events with each attempt's outcome applied to its delivery. `missing` is how many of the
 * newest events must be read again because a delivery an attempt names is not on screen yet.
 */
export function withAttempts(list: Event[], attempts: AttemptMessage[]): { list: Event[]; missing: number } {
  if (attempts.length === 0) return { list, missing: 0 };
  const index = new Map(list.map((e, i) => [e.id, i]));
  const out = list.slice();
  let missing = 0;
  for (const a of attempts) {
    const i = index.get(a.eventId);
    if (i === undefined) continue;
    const event = out[i]!;
    if (!event.deliveries.some((d) => d.id === a.deliveryId)) {
      missing = Math.max(missing, i + 1);
      continue;
    }
    out[i] = {
      ...event,
      deliveries: event.deliveries.map((d) => {
        if (d.id !== a.deliveryId || d.attempts > a.attempt) return d;
        const { nextAttemptAt: _, ...rest } = d;
        return { ...rest, status: a.status, attempts: a.attempt, ...(a.nextAttemptAt !== undefined && { nextAttemptAt: a.nextAttemptAt }) };
      }),
    };
  }
  return { list: out, missing };
}
