/**
 * The delivery lab's routes refuse bad input (docs/webhooks.md: Webhooks → The delivery lab): a 400 problem
 * naming every bad field, or a 404/409 for what does not exist or cannot happen — never a 500 —
 * and a refusal changes nothing. Also: the faults a body stands for, in their normal form.
 */
import { describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { recordChanges } from '../../testing/state.js';

const UNKNOWN = '3b241101-e2bb-4255-8caf-4136c566a962';

/** A sandbox with one webhook and one delivered event, and a recorder of every row written. */
async function world() {
  const sb = createTestSandbox();
  const hook = sb.deps.services.webhooks.put({ callbackUrl: 'http://127.0.0.1:9/hook', types: ['card.updated'] });
  sb.deps.store.transaction(() => sb.deps.services.events.emit('card.updated', UNKNOWN, { id: UNKNOWN, status: 'active' }));
  const [delivery] = (await sb.json('GET', '/_sandbox/events', { token: false })).body[0].deliveries;
  sb.deps.store.sqlite.prepare("UPDATE deliveries SET status = 'delivered', next_attempt_at = NULL").run();
  const recorder = recordChanges(sb.deps.store);
  return { sb, hookId: hook.id as string, deliveryId: delivery.id as string, recorder };
}

const send = (sb: TestSandbox, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  sb.json(method, `/_sandbox${path}`, { token: false, body, headers });

describe('PUT /_sandbox/webhooks/faults', () => {
  it('stores the faults in their normal form and answers them', async () => {
    const { sb, hookId } = await world();
    const res = await send(sb, 'PUT', '/webhooks/faults', {
      duplicate: 0.2,
      reorder: 0,
      delay: 'PT2S-90s',
      fail: { status: 503, rate: 0.5 },
      timeout: 1,
      seed: 4294967295,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      scope: 'programme',
      faults: { duplicate: 0.2, reorder: 0, delay: '2s-90s', fail: { status: 503, rate: 0.5 }, timeout: 1, seed: 4294967295 },
    });
    expect((await send(sb, 'GET', '/webhooks/faults')).body).toEqual(res.body);
    expect((await send(sb, 'PUT', `/webhooks/${hookId}/faults`, { delay: '1m' })).body).toEqual({ scope: 'webhook', faults: { delay: '1m' } });
    expect((await send(sb, 'PUT', '/webhooks/faults', {})).body).toEqual({ scope: 'programme', faults: {} });
    // An empty body is no faults.
    expect((await sb.request('PUT', '/_sandbox/webhooks/faults', { token: false })).status).toBe(200);
  });

  it.each([
    [{ duplicate: 1.5 }, ['duplicate']],
    [{ duplicate: '0.2' }, ['duplicate']],
    [{ reorder: -0.1 }, ['reorder']],
    [{ timeout: null }, ['timeout']],
    [{ delay: '30s-2s' }, ['delay']],
    [{ delay: 'soon' }, ['delay']],
    [{ delay: '1s-2s-3s' }, ['delay']],
    [{ delay: '25h' }, ['delay']],
    [{ delay: 5 }, ['delay']],
    [{ fail: { status: 503 } }, ['fail']],
    [{ fail: { status: 503, times: 2, rate: 0.5 } }, ['fail']],
    [{ fail: { status: 200, times: 1 } }, ['fail.status']],
    [{ fail: { status: 503.5, times: 1 } }, ['fail.status']],
    [{ fail: { status: 503, times: 0 } }, ['fail.times']],
    [{ fail: { status: 503, times: 1.5 } }, ['fail.times']],
    [{ fail: { status: 503, rate: 2 } }, ['fail.rate']],
    [{ fail: { status: 503, times: 1, colour: 'red' } }, ['fail']],
    [{ fail: 503 }, ['fail']],
    [{ seed: -1 }, ['seed']],
    [{ seed: 2 ** 32 }, ['seed']],
    [{ duplicates: 1 }, ['body']],
    [{ duplicate: 2, timeout: 'x' }, ['duplicate', 'timeout']],
    [[], ['body']],
    ['not json', ['body']],
  ])('refuses %j naming %j, and changes nothing', async (body, paths) => {
    const { sb, hookId, recorder } = await world();
    for (const path of ['/webhooks/faults', `/webhooks/${hookId}/faults`]) {
      const res = await send(sb, 'PUT', path, body);
      expect(res.status).toBe(400);
      expect(res.headers.get('Content-Type')).toBe('application/problem+json');
      expect(res.body.code).toBe('invalid_request');
      if (body !== 'not json') expect([...new Set(res.body.errors.map((e: { path: string }) => e.path))]).toEqual(paths);
    }
    expect(recorder.changes()).toEqual([]);
    expect((await send(sb, 'GET', '/webhooks/faults')).body).toEqual({ scope: 'programme', faults: {} });
  });
});

describe('the other delivery-lab routes', () => {
  it.each([
    ['GET', '/webhooks/nope/faults', 400, 'webhookId'],
    ['PUT', '/webhooks/nope/faults', 400, 'webhookId'],
    ['DELETE', '/webhooks/nope/faults', 400, 'webhookId'],
    ['POST', '/webhooks/nope/pause', 400, 'webhookId'],
    ['POST', '/webhooks/nope/resume', 400, 'webhookId'],
    ['POST', '/deliveries/nope/retry', 400, 'deliveryId'],
    ['POST', '/deliveries/nope/exhaust', 400, 'deliveryId'],
    ['DELETE', '/webhooks/nope', 400, 'webhookId'],
  ])('%s %s is a 400 naming %s', async (method, path, status, field) => {
    const { sb, recorder } = await world();
    const res = await send(sb, method, path, method === 'PUT' ? { duplicate: 1 } : undefined);
    expect(res.status).toBe(status);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([field]);
    expect(recorder.changes()).toEqual([]);
  });

  it.each([
    ['GET', `/webhooks/${UNKNOWN}/faults`, 'webhook_not_found'],
    ['PUT', `/webhooks/${UNKNOWN}/faults`, 'webhook_not_found'],
    ['DELETE', `/webhooks/${UNKNOWN}/faults`, 'webhook_not_found'],
    ['POST', `/webhooks/${UNKNOWN}/pause`, 'webhook_not_found'],
    ['POST', `/webhooks/${UNKNOWN}/resume`, 'webhook_not_found'],
    ['POST', `/deliveries/${UNKNOWN}/retry`, 'delivery_not_found'],
    ['POST', `/deliveries/${UNKNOWN}/exhaust`, 'delivery_not_found'],
  ])('%s %s is a 404 %s', async (method, path, code) => {
    const { sb, recorder } = await world();
    const res = await send(sb, method, path, method === 'PUT' ? { duplicate: 1 } : undefined);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code, title: code === 'delivery_not_found' ? 'Delivery not found' : 'Webhook not found' });
    expect(recorder.changes()).toEqual([]);
  });

  it('refuses to retry or exhaust a delivered delivery with a 409, changing nothing', async () => {
    const { sb, deliveryId, recorder } = await world();
    for (const action of ['retry', 'exhaust']) {
      const res = await send(sb, 'POST', `/deliveries/${deliveryId}/${action}`);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('invalid_state_transition');
    }
    expect(recorder.changes()).toEqual([]);
  });

  it('refuses to retry a delivery whose webhook was deleted', async () => {
    const { sb, hookId, deliveryId } = await world();
    sb.deps.store.sqlite.prepare("UPDATE deliveries SET status = 'discarded'").run();
    await send(sb, 'DELETE', `/webhooks/${hookId}`);
    const recorder = recordChanges(sb.deps.store);
    recorder.clear();
    expect((await send(sb, 'POST', `/deliveries/${deliveryId}/retry`)).body).toMatchObject({ status: 409, detail: expect.stringContaining('deleted') });
    expect(recorder.changes()).toEqual([]);
  });

  it('acts on the programme named: a webhook of another is not found there', async () => {
    const { sb, hookId } = await world();
    const other = (await send(sb, 'POST', '/programmes', {})).body.id as string;
    expect((await send(sb, 'POST', `/webhooks/${hookId}/pause?programme=${other}`)).status).toBe(404);
    expect((await send(sb, 'PUT', '/webhooks/faults', { duplicate: 1 }, { 'Sandbox-Programme': other })).status).toBe(200);
    expect((await send(sb, 'GET', '/webhooks/faults')).body.faults).toEqual({});
    expect((await send(sb, 'GET', `/webhooks/faults?programme=${other}`)).body.faults).toEqual({ duplicate: 1 });
  });
});

describe('POST /_sandbox/events/resend', () => {
  it.each([
    [{}, ['body']],
    [{ type: 'card.created' }, ['type']],
    [{ since: 'yesterday' }, ['since']],
    [{ since: 'now' }, ['since']],
    [{ until: '2026-02-30' }, ['until']],
    [{ since: '2026-03-02', until: '2026-03-01' }, ['until']],
    [{ since: '2026-03-01', until: '2026-03-01' }, ['until']],
    [{ since: 1_700_000_000_000 }, ['since']],
    [{ type: 'card.updated', eventId: UNKNOWN }, ['body']],
    [null, ['body']],
  ])('refuses %j naming %j, and queues nothing', async (body, paths) => {
    const { sb, recorder } = await world();
    const res = await send(sb, 'POST', '/events/resend', body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    expect(recorder.changes()).toEqual([]);
  });
});
