import http from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { contentDigest } from '../signatures/digest.js';
import { ApiError } from '../client/create-client.js';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';
import { startTestReceiver as startRawReceiver } from '../testing/receiver.js';
import { createSandbox, type Sandbox } from './create-sandbox.js';
import { until } from '../testing/wait.js';
import { WaitTimeoutError } from './waiting.js';

/** An active customer in `sandbox`, through the client alone. */
async function activeCustomer(sandbox: Sandbox) {
  const wallet = sandbox.wallet();
  const customer = await sandbox.client.createCustomer({ chainId: wallet.chainId, externalId: wallet.address });
  await sandbox.client.signCustomerChallenge(customer.id, wallet.signChallenge(customer.challenge));
  await sandbox.client.simulateVerifyCustomer(customer.id);
  return Object.assign(customer, { wallet });
}

describe('createSandbox() in-process', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ name: 'companion', clock: '2026-01-01T09:00:00Z' });
  });
  afterAll(() => sandbox?.close());

  test('is a programme of its own with its credentials, in a sandbox on a free port', async () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const listed = await fetch(`${sandbox.url}/_sandbox/programmes/${sandbox.programme}`).then((r) => r.json());
    expect(listed).toMatchObject({ id: sandbox.programme, name: 'companion', apiKeys: [sandbox.apiKey], clock: { frozen: true } });
    expect(await sandbox.client.getCustomers()).toEqual([]);
  });

  test('clock: now, advance by a duration, advance to an instant', async () => {
    expect(await sandbox.clock.now()).toEqual(new Date('2026-01-01T09:00:00Z'));
    expect(await sandbox.clock.advance('25h')).toEqual(new Date('2026-01-02T10:00:00Z'));
    expect(await sandbox.clock.advanceTo(new Date('2026-01-03T00:00:00Z'))).toEqual(new Date('2026-01-03T00:00:00Z'));
    await expect(sandbox.clock.advance('-5m')).rejects.toMatchObject({ name: 'ApiError', status: 400, code: 'invalid_request' });
  });

  test('events: listed with their bodies, awaited when already there and when they come later', async () => {
    const customer = await activeCustomer(sandbox);
    const listed = await sandbox.events.list({ type: 'customer.updated', entityId: customer.id });
    expect(listed.map((e) => e.body.status)).toEqual(['active', 'verifying', 'screening', 'initiating']);
    expect((await sandbox.events.waitFor('customer.updated', (c) => c.id === customer.id)).body.status).toBe('initiating');

    const account = await sandbox.client.createCustomerAccount(customer.id, { type: 'card_account', currencies: ['EUR'] });
    await sandbox.client.signAccountChallenge(account.id, customer.wallet.signChallenge(account.challenge));
    // The predicate sees the events already there first: once it has, the rest come from the stream.
    let readPast = false;
    const deployed = sandbox.events.waitFor('account.updated', (a) => ((readPast = true), a.status === 'active'));
    await until(() => readPast, 'waitFor to read the events already there');
    await sandbox.clock.advance('2s');
    expect((await deployed).body).toMatchObject({ id: account.id, status: 'active', chainId: expect.stringMatching(/^eip155:11155111:0x[0-9a-fA-F]{40}$/) });
  });

  test('waitFor names what it waited for when the time is up', async () => {
    const waiting = sandbox.events.waitFor('card.updated', (c) => c.status === 'active', { timeout: 200 });
    await expect(waiting).rejects.toThrow(WaitTimeoutError);
    await expect(waiting).rejects.toThrow(
      'timed out after 200 ms waiting for a card.updated event matching (c) => c.status === "active": no card.updated event arrived; the sandbox clock is frozen, so what falls due later needs clock.advance()',
    );
  });

  test('closes at once after a waitFor that timed out: no connection is left for the shutdown grace period to cut', async () => {
    // The grace period's end is where the server cuts what is still open: reaching it means close() waited on something.
    const cut = vi.spyOn(http.Server.prototype, 'closeAllConnections');
    try {
      const own = await createSandbox({ clock: '2026-01-01T09:00:00Z' });
      await expect(own.events.waitFor('card.updated', undefined, { timeout: 100 })).rejects.toThrow(WaitTimeoutError);
      await own.clock.now();
      // What a client's pool holds after such a stream: a connection open, no request made on it.
      const { port } = new URL(own.url);
      const pooled = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => pooled.once('connect', resolve));
      const hungUp = new Promise((resolve) => pooled.once('close', resolve));
      await own.close();
      await hungUp;
      expect(cut).not.toHaveBeenCalled();
    } finally {
      cut.mockRestore();
    }
  });

  test('a receiver subscribes itself, keeps verified events and refuses tampered deliveries', async () => {
    const receiver = await sandbox.webhooks.receiver({ types: ['customer.updated'] });
    const raw = await startRawReceiver();
    // The same path as the receiver's: a delivery captured here is one the receiver could have got.
    await sandbox.client.saveWebhook({ callbackUrl: `${raw.url}/webhooks`, types: ['customer.updated'] });
    try {
      expect((await sandbox.client.getWebhook(receiver.webhookId)).callbackUrl).toBe(receiver.url);
      const customer = await activeCustomer(sandbox);
      const active = await receiver.waitFor('customer.updated', (c) => c.id === customer.id && c.status === 'active');
      expect(active).toMatchObject({ webhookType: 'customer.updated', status: 'active' });

      // A delivery the sandbox signed, replayed to the receiver with its own Host: as sent it
      // verifies, changed it does not.
      const [original] = await raw.waitFor(1);
      const replay = (body: string, headers = original!.headers) =>
        new Promise<number>((resolve, reject) => {
          const { 'content-length': _, connection: __, ...kept } = headers;
          http
            .request(receiver.url, { method: 'POST', headers: kept }, (res) => resolve(res.resume().statusCode!))
            .once('error', reject)
            .end(body);
        });
      expect(await replay(original!.body.toString('utf8'))).toBe(200);
      const tampered = original!.body.toString('utf8').replace('"initiating"', '"active"');
      expect(await replay(tampered)).toBe(400);
      // The digest made to match the changed body: the signature, which covers it, no longer verifies.
      expect(await replay(tampered, { ...original!.headers, 'content-digest': contentDigest(tampered) })).toBe(400);
      expect(receiver.refused.map((r) => r.reason)).toEqual([
        expect.stringMatching(/^Content-Digest sha-512 does not match the body/),
        'the signature does not verify with the verification key',
      ]);
      expect(receiver.events.filter((e) => e.eventId === JSON.parse(tampered).eventId)).toHaveLength(1);
      expect(receiver.events.every((e) => e.webhookType === 'customer.updated')).toBe(true);

      await expect(receiver.waitFor('card.updated', undefined, { timeout: 100 })).rejects.toThrow(
        /^the receiver at http:\/\/127\.0\.0\.1:\d+\/webhooks timed out after 100 ms waiting for a card\.updated event: no card\.updated event arrived; 2 deliveries refused/,
      );
    } finally {
      await raw.close();
      await receiver.close();
    }
    await expect(sandbox.client.getWebhook(receiver.webhookId)).rejects.toMatchObject({ code: 'webhook_not_found' });
  });

  test('reset() wipes the world and subscribes the receivers again', async () => {
    const receiver = await sandbox.webhooks.receiver();
    await activeCustomer(sandbox);
    await receiver.waitFor('customer.updated', (c) => c.status === 'active');
    await sandbox.reset();
    expect(await sandbox.client.getCustomers()).toEqual([]);
    expect(receiver.events).toEqual([]);
    const again = await activeCustomer(sandbox);
    expect((await receiver.waitFor('customer.updated', (c) => c.status === 'active')).id).toBe(again.id);
    await receiver.close();
  });

  test('refuses a clock it cannot read, with the problem', async () => {
    await expect(createSandbox({ url: sandbox.url, clock: 'yesterday' })).rejects.toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'invalid_request',
      problem: { errors: [{ path: 'clock' }] },
    });
  });

  test('close() stops the sandbox it started', async () => {
    const own = await createSandbox();
    await own.close();
    await own.close();
    await expect(fetch(`${own.url}/_sandbox/health`)).rejects.toThrow();
  });
});

describe('createSandbox({ url }): a programme in a running sandbox', () => {
  let cli: RunningCli;
  beforeAll(async () => {
    assertBuilt();
    cli = await startSandbox(['--admin-token', 'let-me-in']);
  });
  afterAll(() => cli?.stop());

  test('creates a programme there and deletes it on close', async () => {
    const admin = { Authorization: 'Bearer let-me-in' };
    await using sandbox = await createSandbox({ url: `${cli.url}/v1`, adminToken: 'let-me-in' });
    expect(sandbox.url).toBe(cli.url);
    const customer = await activeCustomer(sandbox);
    expect((await sandbox.events.waitFor('customer.updated', (c) => c.status === 'active')).entityId).toBe(customer.id);
    const res = await fetch(`${cli.url}/_sandbox/programmes/${sandbox.programme}`, { headers: admin });
    expect(res.status).toBe(200);
    await sandbox.close();
    expect((await fetch(`${cli.url}/_sandbox/programmes/${sandbox.programme}`, { headers: admin })).status).toBe(404);
  });

  test('without the admin token, the control plane refuses it', async () => {
    const refused = await createSandbox({ url: cli.url }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 401, code: 'not_authorised', path: '/_sandbox/programmes' });
  });

  test('an address where no sandbox answers fails at once', async () => {
    await expect(createSandbox({ url: 'http://127.0.0.1:9' })).rejects.toThrow(/^no sandbox reachable at http:\/\/127\.0\.0\.1:9 \(/);
  });
});
