/**
 * The delivery lab's commands in-process: `webhooks faults set|show|clear`, `webhooks
 * pause|resume`, `deliveries retry|exhaust`, `events resend` of a window, the faults and answers
 * in `events show` and `events tail`, and `listen` against a real loopback receiver.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliContext } from '../../testing/cli.js';
import { createTestSandbox, T0, type TestSandbox } from '../../testing/harness.js';
import { startTestReceiver, type Receiver } from '../../testing/receiver.js';
import { until } from '../../testing/wait.js';
import { ClientUsageError } from '../client.js';
import { ApiError } from '../../client/operations.js';
import { resendWindow, showEvent, tailEvents } from './events.js';
import { listen } from './listen.js';
import { clearFaults, deliveryAction, listWebhooks, pauseOrResume, setFaults, showFaults } from './webhooks.js';

const CARD = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

let sb: TestSandbox;
let receiver: Receiver;
beforeEach(async () => {
  sb = createTestSandbox();
  receiver = await startTestReceiver();
});
afterEach(async () => {
  await receiver.close();
  await sb.deps.services.webhooks.drain(2000);
});

const subscribe = (path = '/hook') => sb.deps.services.webhooks.put({ callbackUrl: `${receiver.url}${path}`, types: ['card.updated'] });
const emit = (status: string) => sb.deps.store.transaction(() => sb.deps.services.events.emit('card.updated', CARD, { id: CARD, status }));
const advance = (ms = 0) => sb.deps.services.scheduler.advance(T0 + ms);

describe('webhooks faults', () => {
  it('sets, shows and clears the faults of all webhooks or one', async () => {
    const hook = subscribe();
    const set = cliContext(sb);
    await setFaults(set, 'duplicate=0.2,delay=2s-30s,fail.status=503,fail.times=3');
    expect(set.stdout()).toBe('faults for all webhooks: duplicate=0.2, delay=2s-30s, fail=503×3 (3 left)\n');
    const shown = cliContext(sb);
    await showFaults(shown, hook.id);
    expect(shown.stdout()).toBe(`faults for webhook ${hook.id}: duplicate=0.2, delay=2s-30s, fail=503×3 (3 left) (the programme's: it has none of its own)\n`);
    const own = cliContext(sb, { json: true });
    await setFaults(own, 'fail.status=500,fail.rate=0.5', hook.id);
    expect(JSON.parse(own.stdout())).toEqual({ scope: 'webhook', faults: { fail: { status: 500, rate: 0.5 } } });
    const cleared = cliContext(sb);
    await clearFaults(cleared);
    await clearFaults(cleared, hook.id);
    expect(cleared.stdout()).toBe(`✓ no faults for all webhooks\n✓ no faults for webhook ${hook.id} of its own: it follows the programme's\n`);
    const none = cliContext(sb);
    await showFaults(none);
    expect(none.stdout()).toBe('faults for all webhooks: none\n');
  });

  it('refuses a malformed spec before asking the sandbox, and surfaces the values the sandbox refuses', async () => {
    await expect(setFaults(cliContext(sb), 'dupes=1')).rejects.toThrow(ClientUsageError);
    const refused = (await setFaults(cliContext(sb), 'duplicate=3,delay=later').catch((e: unknown) => e)) as ApiError;
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.problem!.errors?.map((e) => e.path)).toEqual(['duplicate', 'delay']);
    const unknown = (await showFaults(cliContext(sb), CARD).catch((e: unknown) => e)) as ApiError;
    expect(unknown.problem!.code).toBe('webhook_not_found');
  });
});

describe('webhooks pause|resume, deliveries retry|exhaust, events resend', () => {
  it('holds deliveries, lets them go, and acts on one delivery', async () => {
    const hook = subscribe();
    const listed = cliContext(sb);
    await listWebhooks(listed);
    expect(listed.stdout()).toMatch(new RegExp(`^ID\\s+CALLBACK URL\\s+TYPES\\n${hook.id}\\s+${receiver.url}/hook\\s+card.updated\\n$`));

    const paused = cliContext(sb);
    await pauseOrResume(paused, 'pause');
    emit('active');
    await advance();
    expect(receiver.requests).toHaveLength(0);
    await pauseOrResume(paused, 'pause', hook.id);
    await pauseOrResume(paused, 'resume');
    await pauseOrResume(paused, 'resume', hook.id);
    expect(paused.stdout().split('\n')).toEqual([
      '❚❚ deliveries to all webhooks paused (0 pending deliveries held); events queue until you resume',
      `❚❚ deliveries to webhook ${hook.id} paused (0 pending deliveries held); events queue until you resume`,
      '▶ deliveries to all webhooks resumed (0 pending deliveries let go)',
      `▶ deliveries to webhook ${hook.id} resumed (1 pending delivery let go)`,
      '',
    ]);
    await advance();
    expect(receiver.requests).toHaveLength(1);

    receiver.answer(500);
    const eventId = emit('inactive');
    await advance();
    const deliveryId = sb.deps.services.sandboxEvents.get(eventId).deliveries[0]!.id;
    const acted = cliContext(sb);
    await deliveryAction(acted, 'retry', deliveryId);
    await deliveryAction(acted, 'exhaust', deliveryId);
    expect(acted.stdout()).toBe(
      `✓ delivery ${deliveryId} of event ${eventId}: next attempt now (${receiver.url}/hook)\n✓ delivery ${deliveryId} of event ${eventId} discarded after 2 attempts\n`,
    );

    const resent = cliContext(sb);
    await resendWindow(resent, { type: 'card.updated' });
    await resendWindow(resent, { since: '2030-01-01' });
    expect(resent.stdout()).toBe('✓ 2 events queued again: 2 deliveries\n! no event matches: nothing to resend\n');
  });
});

describe('events show and tail', () => {
  it("show each attempt's fault and the receiver's own error", async () => {
    subscribe();
    receiver.answer({ status: 500, contentType: 'text/plain', body: 'TypeError: cannot read properties of undefined\n    at handler (hooks.js:12)' });
    await setFaults(cliContext(sb), 'fail.status=503,fail.times=1');
    const tail = cliContext(sb);
    const abort = new AbortController();
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const following = tailEvents(tail, {}, abort.signal, open);
    await opened;
    const eventId = emit('active');
    await advance();
    await until(() => tail.stdout().includes('answered'), 'the tail to print the answer');
    abort.abort();
    await following;
    const lines = tail.stdout().split('\n');
    expect(lines[1]).toMatch(/attempt 1: 503 \[injected-status\] 0ms → pending/);
    expect(lines[2]).toMatch(/attempt 2: 500 \d+ms → pending, retry at 2026-03-01T09:00:01.000Z/);
    expect(lines[3]).toContain('answered TypeError: cannot read properties of undefined at handler (hooks.js:12)');

    const shown = cliContext(sb);
    await showEvent(shown, eventId);
    expect(shown.stdout()).toMatch(
      /#\s+AT\s+OUTCOME\s+MS\s+FAULT\n1\s+2026-03-01T09:00:00.000Z\s+503\s+0\s+injected-status\n2\s+2026-03-01T09:00:00.000Z\s+500\s+\d+\s*\n/,
    );
    expect(shown.stdout()).toContain('  #2 answered text/plain: \n    TypeError: cannot read properties of undefined\n        at handler (hooks.js:12)\n');
  });
});

describe('listen', () => {
  /** `listen --forward-to <receiver>/mine --types card.updated`, once it is ready. */
  const startListening = async () => {
    const ctx = cliContext(sb);
    const abort = new AbortController();
    let ready!: () => void;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const done = listen(ctx, { forwardTo: `${receiver.url}/mine`, types: ['card.updated'] }, abort.signal, ready);
    await isReady;
    return { ctx, abort, listening: done };
  };

  it('subscribes the URL, prints each delivery to it live, and deletes the subscription when stopped', async () => {
    subscribe('/someone-else');
    await setFaults(cliContext(sb), 'duplicate=1');
    const { ctx, abort, listening } = await startListening();
    const [mine] = (await sb.json('GET', '/_sandbox/webhooks', { token: false })).body.filter((h: { callbackUrl: string }) => h.callbackUrl.endsWith('/mine'));
    expect(ctx.stderr()).toContain(`Ready! Forwarding card.updated to ${receiver.url}/mine (webhook ${mine.id})`);
    expect(ctx.stderr()).toContain(`Verify signatures with the key ${sb.deps.services.webhooks.verificationKey().keyId}`);

    const eventId = emit('active');
    await advance();
    await until(() => ctx.stdout().split('\n').length > 2, 'two lines');
    abort.abort();
    await listening;
    expect(ctx.stdout().trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^2026-03-01T09:00:00.000Z  card.updated  ${CARD}  → 200  \\d+ms  event ${eventId}$`)),
      expect.stringMatching(new RegExp(`^2026-03-01T09:00:00.000Z  card.updated  ${CARD}  → 200  \\d+ms  \\[duplicate\\]  event ${eventId}$`)),
    ]);
    expect(ctx.stderr()).toContain(`deleted webhook ${mine.id}`);
    expect((await sb.json('GET', '/_sandbox/webhooks', { token: false })).body.map((h: { callbackUrl: string }) => h.callbackUrl)).toEqual([
      `${receiver.url}/someone-else`,
    ]);
  });

  it('subscribes again after a reset, forwards what comes next, and still deletes its subscription when stopped', async () => {
    const { ctx, abort, listening } = await startListening();
    const hooks = async () => (await sb.json('GET', '/_sandbox/webhooks', { token: false })).body as { id: string; callbackUrl: string; types: string[] }[];
    const [before] = await hooks();
    expect((await sb.json('POST', '/_sandbox/reset', { token: false })).status).toBe(200);
    await until(() => ctx.stderr().includes('forwarding again'), 'the line saying it subscribed again');
    const [after] = await hooks();
    expect(after).toMatchObject({ callbackUrl: `${receiver.url}/mine`, types: ['card.updated'] });
    expect(after!.id).not.toBe(before!.id);
    expect(ctx.stderr()).toContain(`The sandbox was reset or restored: webhook ${before!.id} went with it; forwarding again as webhook ${after!.id}`);
    const eventId = emit('active');
    await advance();
    await until(() => ctx.stdout().includes(eventId), 'the delivery after the reset');
    abort.abort();
    await listening;
    expect(ctx.stderr()).toContain(`deleted webhook ${after!.id}`);
    expect(await hooks()).toEqual([]);
  });

  it('keeps following a subscription a restored snapshot holds, and subscribes again when it does not', async () => {
    const snapshot = async () => (await sb.json('POST', '/_sandbox/snapshots', { body: {}, token: false })).body as { id: string };
    const restore = async (id: string) => expect((await sb.json('POST', `/_sandbox/snapshots/${id}/restore`, { token: false })).status).toBe(200);
    const hooks = async () => (await sb.json('GET', '/_sandbox/webhooks', { token: false })).body as { id: string }[];
    const before = await snapshot();
    const { ctx, abort, listening } = await startListening();
    const [mine] = await hooks();

    await restore((await snapshot()).id);
    await until(() => ctx.stderr().includes(`webhook ${mine!.id} is in it still`), 'the line saying it goes on');
    expect(await hooks()).toEqual([mine]);

    await restore(before.id);
    await until(() => ctx.stderr().includes('forwarding again'), 'the line saying it subscribed again');
    const [again] = await hooks();
    expect(ctx.stderr()).toContain(`The sandbox was reset or restored: webhook ${mine!.id} went with it; forwarding again as webhook ${again!.id}`);
    abort.abort();
    await listening;
    expect(await hooks()).toEqual([]);
  });

  it('stops with the refusal when the URL is refused, subscribing nothing', async () => {
    const error = (await listen(cliContext(sb), { forwardTo: 'ftp://nope' }, new AbortController().signal).catch((e: unknown) => e)) as ApiError;
    expect(error.problem!.errors?.[0]?.path).toBe('callbackUrl');
    expect((await sb.json('GET', '/_sandbox/webhooks', { token: false })).body).toEqual([]);
  });
});
