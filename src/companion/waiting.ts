/**
 * Waiting for an event, shared by `events.waitFor` and a receiver's `waitFor` (docs/companion.md: Helpers for
 * your tests): a timeout error that names what was awaited and what arrived instead.
 */
import type { WebhookEvent, WebhookEventType } from '../client/webhook-event.js';

export type EventPredicate<T extends WebhookEventType> = (body: WebhookEvent<T>) => boolean;

export interface WaitOptions {
  /** Milliseconds of real time to wait; 5000 by default. */
  timeout?: number;
}

export const DEFAULT_TIMEOUT_MS = 5_000;

/** Thrown when what was awaited did not happen in time. */
export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
}

/** `a card.updated event matching (c) => c.status === "active"`. */
export function awaited(type: string, predicate: ((body: never) => boolean) | undefined): string {
  const source = predicate === undefined ? '' : String(predicate).replace(/\s+/g, ' ');
  return `a ${type} event${source ? ` matching ${source.length > 200 ? `${source.slice(0, 200)}…` : source}` : ''}`;
}

/** What arrived instead: `2 card.updated events arrived, none matching (status: issuing, active)`. */
export function arrived(type: string, bodies: unknown[]): string {
  if (bodies.length === 0) return `no ${type} event arrived`;
  const statuses = bodies.map((b) => (b as { status?: unknown }).status).filter((s) => typeof s === 'string');
  return `${bodies.length} ${type} event${bodies.length === 1 ? '' : 's'} arrived, none matching${statuses.length > 0 ? ` (status: ${statuses.join(', ')})` : ''}`;
}
