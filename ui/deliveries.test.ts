/** Deliveries at a glance, and attempts applied to the events on screen (ui/deliveries.ts). */
import { describe, expect, it } from 'vitest';
import type { AttemptMessage, Delivery, Event } from './api-types.js';
import { deliveryState, eventState, failing, withAttempts } from './deliveries.js';

const delivery = (over: Partial<Delivery> = {}): Delivery => ({
  id: 'd1',
  webhookId: 'w1',
  callbackUrl: 'http://127.0.0.1:1/hooks',
  status: 'pending',
  attempts: 0,
  ...over,
});
const event = (id: string, deliveries: Delivery[]): Event => ({
  id,
  type: 'card.updated',
  entityId: 'c1',
  createdAt: '2026-03-01T09:00:00.000Z',
  body: {},
  deliveries,
});
const attempt = (over: Partial<AttemptMessage>): AttemptMessage => ({
  kind: 'attempt',
  eventId: 'e1',
  type: 'card.updated',
  entityId: 'c1',
  deliveryId: 'd1',
  webhookId: 'w1',
  callbackUrl: 'http://127.0.0.1:1/hooks',
  attempt: 1,
  at: '2026-03-01T09:00:00.000Z',
  durationMs: 3,
  status: 'delivered',
  ...over,
});

describe('deliveryState and eventState', () => {
  it('marks delivered, pending, retrying, paused and failed, and an event by its worst delivery', () => {
    expect(deliveryState(delivery({ status: 'delivered', attempts: 3 }))).toBe('delivered');
    expect(deliveryState(delivery())).toBe('pending');
    expect(deliveryState(delivery({ attempts: 2 }))).toBe('retrying');
    expect(deliveryState(delivery({ attempts: 2, paused: true }))).toBe('paused');
    expect(deliveryState(delivery({ status: 'discarded', attempts: 23 }))).toBe('failed');
    expect(eventState([])).toBe('none');
    expect(eventState([delivery({ status: 'delivered' }), delivery({ attempts: 1 })])).toBe('retrying');
    expect(eventState([delivery({ status: 'discarded' }), delivery({ attempts: 1 })])).toBe('failed');
    expect(failing(delivery({ attempts: 1 }))).toBe(true);
    expect(failing(delivery())).toBe(false);
    expect(failing(delivery({ status: 'delivered', attempts: 2 }))).toBe(false);
  });
});

describe('withAttempts', () => {
  it('updates the delivery an attempt names, drops its next attempt once there is none, and ignores a stale attempt', () => {
    const list = [event('e2', []), event('e1', [delivery({ attempts: 1, nextAttemptAt: '2026-03-01T09:00:01.000Z' })])];
    const { list: after, missing } = withAttempts(list, [attempt({ attempt: 2, status: 'delivered' })]);
    expect(missing).toBe(0);
    expect(after[1]!.deliveries[0]).toEqual(delivery({ attempts: 2, status: 'delivered' }));
    expect(after[0]).toBe(list[0]);
    expect(withAttempts(after, [attempt({ attempt: 1, status: 'pending' })]).list[1]!.deliveries[0]!.status).toBe('delivered');
  });

  it('says how many of the newest events to read again when a delivery is not on screen yet, and ignores unknown events', () => {
    const list = [event('e3', []), event('e2', []), event('e1', [])];
    expect(withAttempts(list, [attempt({ eventId: 'e2' }), attempt({ eventId: 'nope' })]).missing).toBe(2);
    expect(withAttempts(list, []).list).toBe(list);
  });
});
