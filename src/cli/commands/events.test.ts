import { describe, expect, it } from 'vitest';
import { cliContext } from '../../testing/cli.js';
import { until } from '../../testing/wait.js';
import { createTestSandbox } from '../../testing/harness.js';
import { ApiError } from '../../client/operations.js';
import { listEvents, resendEvent, showEvent, tailEvents } from './events.js';

/** A customer whose events go to a webhook nobody listens on, so every attempt fails. */
async function world() {
  const sb = createTestSandbox();
  const { body } = await sb.json('POST', '/_sandbox/seed', {
    token: false,
    body: { webhooks: [{ callbackUrl: 'http://127.0.0.1:9/hooks', types: ['customer.updated'] }], customers: [{ externalId: 'c', status: 'initiating' }] },
  });
  return { sb, customerId: body.customers[0].id as string };
}

const eventIds = (sb: ReturnType<typeof createTestSandbox>) => sb.deps.services.sandboxEvents.list({ limit: 100 }).map((e) => e.id);

describe('events list', () => {
  it('prints a table newest first with the deliveries state', async () => {
    const { sb, customerId } = await world();
    await sb.json('PATCH', `/_sandbox/simulator/customers/${customerId}/verify`, { token: false });
    const ctx = cliContext(sb);
    await listEvents(ctx, { type: 'customer.updated' });
    const lines = ctx.stdout().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CREATED\s+TYPE\s+ENTITY\s+STATUS\s+EVENT\s+DELIVERIES$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(eventIds(sb)[0]);
    expect(lines[1]).toContain('1 pending');
    // Two events of one entity at the same instant, told apart by the status each carried.
    expect(lines[1]).toMatch(new RegExp(`${customerId}\\s+active\\s+`));
    expect(lines[2]).toMatch(new RegExp(`${customerId}\\s+initiating\\s+`));
  });

  it('passes the filters and prints the JSON with --json', async () => {
    const { sb, customerId } = await world();
    const ctx = cliContext(sb, { json: true });
    await listEvents(ctx, { entity: customerId, limit: 1 });
    const listed = JSON.parse(ctx.stdout());
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ type: 'customer.updated', entityId: customerId });
    const none = cliContext(sb);
    await listEvents(none, { type: 'card.updated' });
    expect(none.stdout()).toBe('no events yet\n');
  });

  it('surfaces a bad filter', async () => {
    const { sb } = await world();
    const error = (await listEvents(cliContext(sb), { type: 'card.created' }).catch((e: unknown) => e)) as ApiError;
    expect(error.problem!.errors?.[0]?.path).toBe('type');
  });
});

describe('events show and resend', () => {
  it('shows the body and every attempt, and queues a resend', async () => {
    const { sb } = await world();
    await sb.deps.services.scheduler.advance(sb.deps.clock.now() + 1500);
    const [eventId] = eventIds(sb);
    const shown = cliContext(sb);
    await showEvent(shown, eventId!);
    expect(shown.stdout()).toContain('"webhookType": "customer.updated"');
    expect(shown.stdout()).toMatch(/delivery .* → http:\/\/127\.0\.0\.1:9\/hooks pending after 3 attempts, next attempt at 2026-03-01T09:00:03.000Z/);
    expect(shown.stdout()).toMatch(/^3\s+2026-03-01T09:00:01\.000Z\s+connect ECONNREFUSED/m);

    const resent = cliContext(sb, { json: true });
    await resendEvent(resent, eventId!);
    expect(JSON.parse(resent.stdout())).toMatchObject({ eventId, deliveries: [{ callbackUrl: 'http://127.0.0.1:9/hooks' }] });
    expect(sb.deps.services.sandboxEvents.get(eventId!).deliveries).toHaveLength(2);
  });

  it('surfaces an unknown event', async () => {
    const { sb } = await world();
    const error = (await showEvent(cliContext(sb), '7c9e6679-7425-40de-944b-e07fc1f90ae7').catch((e: unknown) => e)) as ApiError;
    expect(error.problem).toMatchObject({ status: 404, title: 'Event not found' });
  });
});

describe('events tail', () => {
  it('prints each event and each delivery outcome as it happens; --json one object per line', async () => {
    const { sb, customerId } = await world();
    const abort = new AbortController();
    const ctx = cliContext(sb, { json: true });
    let opened: () => void = () => {};
    const open = new Promise<void>((resolve) => (opened = resolve));
    const following = tailEvents(ctx, {}, abort.signal, opened);
    await open;
    await sb.json('PATCH', `/_sandbox/simulator/customers/${customerId}/verify`, { token: false });
    await sb.deps.services.scheduler.advance(sb.deps.clock.now() + 10);
    await until(() => ctx.stdout().includes('"kind":"attempt"'), 'the attempt line');
    abort.abort();
    await following;
    const lines = ctx
      .stdout()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ kind: 'event', type: 'customer.updated', entityId: customerId, body: { status: 'active' } });
    const attempts = lines.filter((l) => l.kind === 'attempt');
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts[0]).toMatchObject({
      callbackUrl: 'http://127.0.0.1:9/hooks',
      attempt: 1,
      status: 'pending',
      error: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('prints readable lines for people', async () => {
    const { sb, customerId } = await world();
    const abort = new AbortController();
    const ctx = cliContext(sb);
    let opened: () => void = () => {};
    const open = new Promise<void>((resolve) => (opened = resolve));
    const following = tailEvents(ctx, { entity: customerId }, abort.signal, opened);
    await open;
    await sb.json('PATCH', `/_sandbox/simulator/customers/${customerId}/verify`, { token: false });
    await sb.deps.services.scheduler.advance(sb.deps.clock.now() + 10);
    await until(() => ctx.stdout().includes('↳'), 'the attempt line');
    abort.abort();
    await following;
    expect(ctx.stderr()).toContain('following events at http://127.0.0.1:4242');
    expect(ctx.stdout()).toMatch(new RegExp(`customer\\.updated ${customerId} active event `));
    expect(ctx.stdout()).toMatch(/↳ http:\/\/127\.0\.0\.1:9\/hooks attempt 1: .*ECONNREFUSED.* → pending, retry at/);
  });
});
