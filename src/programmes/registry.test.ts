/**
 * A programme's scheduler is built with it (registry.ts) and handed to its services, which fill it
 * with their due work; it runs in real time while the sandbox does, and stops with the programme.
 */
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { DEAD_CALLBACK } from '../testing/hostile-world.js';
import { programme, verifiedCustomer } from '../testing/programmes.js';

describe("a programme's scheduler", () => {
  it('runs the work its services schedule on the scheduler built with the programme, started and stopped with the sandbox or the programme', async () => {
    const sb = createTestSandbox();
    const a = await programme(sb, { clock: '2026-03-01T09:00:00Z' });
    expect((await a.api('PUT', '/v1/webhooks', { body: { callbackUrl: DEAD_CALLBACK, types: ['customer.updated'] } })).status).toBe(200);
    const { scheduler } = sb.deps.programmes.get(a.id);
    expect(scheduler.nextDue()).toBeUndefined();
    await verifiedCustomer(a, 'alice');
    // The verification's webhook delivery is the programme's due work, and the default programme has none.
    expect(scheduler.nextDue()).toBeDefined();
    expect(sb.deps.programmes.default().scheduler.nextDue()).toBeUndefined();
    expect((await scheduler.advance(scheduler.nextDue()!)).ran).toBeGreaterThan(0);
    // Started in real time with the sandbox, or when built after it started; stopped with it, or when deleted.
    const { ticker } = sb.deps.shared;
    sb.deps.programmes.start();
    try {
      expect(ticker.started).toBe(2);
      await programme(sb);
      expect(ticker.started).toBe(3);
      expect((await sb.request('DELETE', `/_sandbox/programmes/${a.id}`, { token: false })).status).toBe(204);
      expect(ticker.started).toBe(2);
    } finally {
      sb.deps.programmes.stop();
    }
    expect(ticker.started).toBe(0);
  });
});
