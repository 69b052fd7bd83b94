/**
 * The attempts in flight shared fairly (docs/webhooks.md: Sharing the attempts in flight): a
 * programme whose receiver hangs, with many deliveries waiting, holds no more than its share, so
 * that another programme's one delivery — or another subscription's of the same programme — goes
 * out at once, long before the hanging attempts time out; a deleted programme's attempts are cut
 * at once; a restore and a save do not wait behind a receiver that hangs, nor behind an advance
 * waiting on one. The hanging attempts are given an hour (--webhook-timeout), longer than any test
 * waits: none times out to make room, so each event the tests wait on comes while they all hang.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { MAX_IN_FLIGHT } from './dispatcher.js';
import { steady, until } from '../testing/wait.js';

const ALL = [...WEBHOOK_TYPES];
const HOUR = 3_600_000;

describe('the attempts in flight, shared fairly', () => {
  let sb: TestSandbox;
  let hanging: Receiver;
  let healthy: Receiver;
  beforeEach(async () => {
    sb = createTestSandbox({ webhookTimeoutMs: HOUR });
    hanging = await startTestReceiver('hang');
    healthy = await startTestReceiver(200);
    sb.deps.programmes.start();
  });
  afterEach(async () => {
    sb.deps.programmes.stop();
    await Promise.all(sb.deps.programmes.loaded().map(({ services }) => services.webhooks.drain(100)));
    await Promise.all([hanging.close(), healthy.close()]);
  });

  const control = (method: string, path: string, body?: unknown, programme?: string) =>
    sb.json(method, `/_sandbox${path}`, { token: false, body, ...(programme && { headers: { 'Sandbox-Programme': programme } }) });
  const customers = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({ externalId: `${prefix}-${i}`, accounts: [{ currencies: ['EUR'], cards: [{}] }] }));

  /**
   * Programme A (the default one): subscriptions whose receiver hangs, with hundreds of deliveries
   * waiting. One subscription takes its share of A's (a quarter of the pool); several take A's
   * whole share (half the pool), and no more.
   */
  const hangingProgramme = async (subscriptions: number) => {
    const webhooks = Array.from({ length: subscriptions }, (_, i) => ({ callbackUrl: `${hanging.url}/a${i}`, types: ALL }));
    await control('POST', '/seed', { webhooks, customers: customers(40, 'a') });
    const share = subscriptions === 1 ? MAX_IN_FLIGHT / 4 : MAX_IN_FLIGHT / 2;
    await hanging.waitFor(MAX_IN_FLIGHT / 4);
    // Until a round of the pump starts nothing more: then what it holds is all its share lets it.
    const { dispatcher } = sb.deps.services.webhooks;
    await steady(dispatcher.source, () => dispatcher.inFlight);
    const held = dispatcher.inFlight;
    expect(held).toBeLessThanOrEqual(share);
    if (subscriptions === 1) expect(held).toBe(share);
    await hanging.waitFor(held);
    expect(hanging.requests).toHaveLength(held);
    return held;
  };

  it("another programme's one delivery arrives at once, while the first's receiver hangs with hundreds waiting", async () => {
    const held = await hangingProgramme(6);
    const b = (await control('POST', '/programmes', { name: 'b' })).body;
    await control('POST', '/seed', { webhooks: [{ callbackUrl: `${healthy.url}/b`, types: ['customer.updated'] }], customers: [{ externalId: 'b-0' }] }, b.id);
    expect(await healthy.waitFor(1)).toHaveLength(1);
    expect(healthy.requests[0]!.path).toBe('/b');
    expect(hanging.connections).toBe(held);
  });

  it.each([
    [8, 3],
    [14, 1],
  ])("another programme's next webhook goes out at once while %i programmes with %i hanging subscriptions each fill the pool", async (count, subscriptions) => {
    const pool = sb.deps.shared.pool;
    for (let p = 0; p < count; p++) {
      const id = (await control('POST', '/programmes', { name: `hanging-${p}` })).body.id as string;
      const webhooks = Array.from({ length: subscriptions }, (_, i) => ({ callbackUrl: `${hanging.url}/p${p}s${i}`, types: ALL }));
      await control('POST', '/seed', { webhooks, customers: customers(12, `p${p}`) }, id);
    }
    await until(() => pool.active >= MAX_IN_FLIGHT && hanging.requests.length === pool.active, 'the hanging receivers to hold every slot of the pool');
    const hangingNow = hanging.requests.length;
    const b = (await control('POST', '/programmes', { name: 'b' })).body;
    await control('POST', '/seed', { webhooks: [{ callbackUrl: `${healthy.url}/b`, types: ['customer.updated'] }], customers: [{ externalId: 'b-0' }] }, b.id);
    expect(await healthy.waitFor(1)).toHaveLength(1);
    // Sent while every hanging attempt was still in flight: none had timed out to make room.
    expect(hanging.connections).toBe(hangingNow);
    expect(hanging.requests).toHaveLength(hangingNow);
  });

  it('another subscription of the same programme is not starved by the one that hangs', async () => {
    const held = await hangingProgramme(1);
    await control('POST', '/seed', { webhooks: [{ callbackUrl: `${healthy.url}/a2`, types: ['customer.updated'] }], customers: [{ externalId: 'a2-0' }] });
    expect(await healthy.waitFor(1)).toHaveLength(1);
    expect(hanging.connections).toBe(held);
  });

  it("an advance alone holds all of the pool but its reserve, and the reserve serves another programme's share", async () => {
    const pool = sb.deps.shared.pool;
    const { dispatcher } = sb.deps.services.webhooks;
    // Failing at first: each delivery's attempt and immediate retry go out in real time, the next is due in 1 s of the frozen clock.
    const failing = await startTestReceiver(500);
    try {
      await control('POST', '/seed', { webhooks: [{ callbackUrl: `${failing.url}/a`, types: ALL }], customers: customers(20, 'a') });
      const { clock } = sb.deps.programmes.default().core;
      await until(() => pool.active === 0 && dispatcher.source.nextDue()! > clock.now(), 'the real-time attempts to end');
      failing.answer('hang');
      const sentBefore = failing.requests.length;
      void control('POST', '/clock/advance', { by: '1h' });
      await until(() => failing.requests.length - sentBefore === pool.max - pool.reserve, "the advance's first batch to hang");
      expect(pool.active).toBe(pool.max - pool.reserve);

      // b's clock is frozen too, so that its deliveries are the seeds' alone.
      const b = (await control('POST', '/programmes', { name: 'b', clock: new Date(clock.now()).toISOString() })).body;
      await control('POST', '/seed', { webhooks: [{ callbackUrl: `${hanging.url}/b`, types: ALL }], customers: customers(4, 'b') }, b.id);
      // Its hanging subscription holds its share of the reserve (half of b's four slots): more than
      // the first attempt every programme has, and no more.
      await hanging.waitFor(2);
      await steady(sb.deps.programmes.get(b.id).services.webhooks.dispatcher.source, () => pool.held(b.id));
      expect(hanging.requests).toHaveLength(2);
      expect(pool.held(b.id)).toBe(2);
      // While it holds them, b's other subscription gets every one of its deliveries.
      const seeded = [{ callbackUrl: `${healthy.url}/b`, types: ['customer.updated'] }];
      await control('POST', '/seed', { webhooks: seeded, customers: customers(4, 'b-more') }, b.id);
      expect(await healthy.waitFor(4)).toHaveLength(4);
      expect(hanging.connections).toBe(2);
      expect(failing.requests.length - sentBefore).toBe(pool.max - pool.reserve);
    } finally {
      await failing.close();
    }
  });

  it("a deleted programme's attempts are cut at once, their sockets closed, their slots free", async () => {
    const a = (await control('POST', '/programmes', { name: 'a' })).body;
    await control('POST', '/seed', { webhooks: [{ callbackUrl: `${hanging.url}/a`, types: ALL }], customers: customers(20, 'a') }, a.id);
    await hanging.waitFor(MAX_IN_FLIGHT / 4);
    expect((await control('DELETE', `/programmes/${a.id}`)).status).toBe(204);
    await until(() => hanging.connections === 0, 'the hanging sockets to close');
  });

  it('a restore does not wait behind attempts hanging in flight, nor behind an advance waiting on them', async () => {
    const saved = (await control('POST', '/snapshots', { name: 'empty' })).body;
    await hangingProgramme(1);
    // An advance whose retries wait on the receiver that hangs.
    const advancing = control('POST', '/clock/advance', { by: '1h' });
    expect(await control('POST', `/snapshots/${saved.id}/restore`)).toMatchObject({ status: 200 });
    expect(await advancing).toMatchObject({ status: 200 });
    expect((await control('GET', '/world/counts')).body.customers).toBe(0);
  });

  it('a save does not wait behind an advance waiting on a receiver that hangs', async () => {
    await hangingProgramme(1);
    // An advance through an hour of retries, each batch waiting on the receiver that hangs (afterEach stops it).
    void control('POST', '/clock/advance', { by: '1h' });
    const saved = await control('POST', '/snapshots', { name: 'while advancing' });
    expect(saved).toMatchObject({ status: 201, body: { counts: { customers: 40 } } });
  });
});
