/** A customer after its creation: signing its challenge, deactivating and activating it, idempotent creation, and its document. */
import { describe, expect, it } from 'vitest';
import { T0, createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { expectShape } from '../../testing/wire.js';
import { Customer } from '../../wire/customer.js';
import { customer, eventsOf, proofFor, testWallet } from '../../testing/world.js';

const HOUR = 3_600_000;
const sign = (sb: TestSandbox, id: string, body: unknown) => sb.json('POST', `/v1/customers/${id}/challenge/sign`, { body });
const count = (sb: TestSandbox) => (sb.deps.store.sqlite.prepare('SELECT count(*) AS n FROM customers').get() as { n: number }).n;

describe('POST /v1/customers/{id}/challenge/sign', () => {
  it('accepts the wallet signature: 204, screening then verifying, one event each', async () => {
    const sb = createTestSandbox();
    const { customerId, wallet, challenge } = await customer(sb, { status: 'initiating' });
    const res = await sb.request('POST', `/v1/customers/${customerId}/challenge/sign`, { body: await proofFor(wallet, challenge) });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await sb.json('GET', `/v1/customers/${customerId}`)).body.status).toBe('verifying');
    expect(eventsOf(sb, customerId).map((e) => e.status)).toEqual(['initiating', 'screening', 'verifying']);
  });

  it('accepts base64 of the hex signature text, and an ownerId in another letter case', async () => {
    const sb = createTestSandbox();
    const { customerId, wallet, challenge } = await customer(sb, { status: 'initiating' });
    const proof = await proofFor(wallet, challenge);
    const hexText = `0x${Buffer.from(proof.signature, 'base64').toString('hex')}`;
    const res = await sign(sb, customerId, { ...proof, ownerId: wallet.chainId.toLowerCase(), signature: Buffer.from(hexText).toString('base64') });
    expect(res.status).toBe(204);
  });

  it('refuses a wrong signer with 400 and issues a new challenge', async () => {
    const sb = createTestSandbox();
    const { customerId, challenge } = await customer(sb, { status: 'initiating' });
    const mallory = testWallet('mallory');
    for (const ownerId of [mallory.chainId, (await sb.json('GET', `/v1/customers/${customerId}`)).body.chainId]) {
      const current = (await sb.json('GET', `/v1/customers/${customerId}/challenge`)).body.challenge;
      const res = await sign(sb, customerId, { ...(await proofFor(mallory, current)), ownerId });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ title: 'Invalid request', code: 'invalid_challenge_signature' });
      expect(res.body.detail).toContain('a new challenge has been issued');
      expect((await sb.json('GET', `/v1/customers/${customerId}/challenge`)).body.challenge).not.toBe(current);
    }
    const stale = await sign(sb, customerId, { ownerId: mallory.chainId, challenge, signature: (await proofFor(mallory, challenge)).signature });
    expect(stale.body.errors).toEqual([{ path: 'challenge', message: 'not the current challenge' }]);
    expect((await sb.json('GET', `/v1/customers/${customerId}`)).body.status).toBe('initiating');
    expect(eventsOf(sb, customerId)).toHaveLength(1);
  });

  it('refuses a second signature with 409', async () => {
    const sb = createTestSandbox();
    const { customerId, wallet, challenge } = await customer(sb, { status: 'initiating' });
    const proof = await proofFor(wallet, challenge);
    expect((await sign(sb, customerId, proof)).status).toBe(204);
    const replay = await sign(sb, customerId, proof);
    expect(replay.status).toBe(409);
    expect(replay.body).toMatchObject({ title: 'Challenge already signed', code: 'challenge_already_signed' });
    expect(eventsOf(sb, customerId)).toHaveLength(3);
  });

  it('refuses an expired challenge; the fresh one can be signed', async () => {
    const sb = createTestSandbox();
    const { customerId, wallet, challenge } = await customer(sb, { status: 'initiating' });
    sb.deps.clock.advanceTo(T0 + HOUR);
    const expired = await sign(sb, customerId, await proofFor(wallet, challenge));
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ code: 'challenge_expired', errors: [{ path: 'challenge', message: 'expired' }] });
    const fresh = (await sb.json('GET', `/v1/customers/${customerId}/challenge`)).body.challenge;
    expect((await sign(sb, customerId, await proofFor(wallet, fresh))).status).toBe(204);
  });

  it('refuses malformed input, naming the fields, and changes nothing', async () => {
    const sb = createTestSandbox();
    const { customerId, wallet, challenge } = await customer(sb, { status: 'initiating' });
    const proof = await proofFor(wallet, challenge);
    const missing = await sign(sb, customerId, {});
    expect(missing.body.errors.map((e: { path: string }) => e.path)).toEqual(['ownerId', 'challenge', 'signature']);
    const badOwner = await sign(sb, customerId, { ...proof, ownerId: 'me' });
    expect(badOwner.body.errors.map((e: { path: string }) => e.path)).toEqual(['ownerId']);
    const shortSignature = await sign(sb, customerId, { ...proof, signature: Buffer.alloc(64, 1).toString('base64') });
    expect(shortSignature.status).toBe(400);
    expect(shortSignature.body).toMatchObject({ code: 'invalid_request', errors: [{ path: 'signature', message: expect.any(String) }] });
    const notBase64 = await sign(sb, customerId, { ...proof, challenge: '%%%' });
    expect(notBase64.body.errors).toEqual([{ path: 'challenge', message: 'not base64' }]);
    // Empty strings are base64 (of nothing), as the service's document allows: refused for what they say.
    const emptyChallenge = await sign(sb, customerId, { ...proof, challenge: '' });
    expect(emptyChallenge.body).toMatchObject({ status: 400, code: 'invalid_request', errors: [{ path: 'challenge', message: 'not the current challenge' }] });
    const emptySignature = await sign(sb, customerId, { ...proof, signature: '' });
    expect(emptySignature.body).toMatchObject({ status: 400, code: 'invalid_request', errors: [{ path: 'signature', message: expect.any(String) }] });
    expect((await sb.json('GET', `/v1/customers/${customerId}/challenge`)).body.challenge).toBe(challenge);
    expect((await sign(sb, customerId, proof)).status).toBe(204);
  });

  it('refuses a customer the simulator already decided on (409)', async () => {
    const sb = createTestSandbox();
    const { customerId, wallet, challenge } = await customer(sb, { status: 'initiating' });
    sb.deps.services.customers.verify(customerId);
    const res = await sign(sb, customerId, await proofFor(wallet, challenge));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'invalid_state_transition', detail: expect.stringContaining('active') });
  });

  it('answers 404 for an unknown customer', async () => {
    const sb = createTestSandbox();
    const wallet = testWallet('x');
    const res = await sign(sb, '3b241101-e2bb-4255-8caf-4136c566a962', { ownerId: wallet.chainId, challenge: 'YQ==', signature: 'YQ==' });
    expect(res.status).toBe(404);
  });
});

describe('PATCH /v1/customers/{id}/deactivate and /activate', () => {
  it('toggle an active customer and answer the customer', async () => {
    const sb = createTestSandbox();
    const { customerId } = await customer(sb);
    const off = await sb.json('PATCH', `/v1/customers/${customerId}/deactivate`);
    expect(off.status).toBe(200);
    expectShape(off.body, Customer);
    expect(off.body.status).toBe('inactive');
    const on = await sb.json('PATCH', `/v1/customers/${customerId}/activate`);
    expect(on.body.status).toBe('active');
    expect(eventsOf(sb, customerId).slice(-2)).toEqual([
      { webhookType: 'customer.updated', eventId: expect.any(String), ...off.body },
      { webhookType: 'customer.updated', eventId: expect.any(String), ...on.body },
    ]);
  });

  it('refuse other states with 409 naming the current and wanted state', async () => {
    const sb = createTestSandbox();
    const { customerId } = await customer(sb, { status: 'verifying' });
    const res = await sb.json('PATCH', `/v1/customers/${customerId}/deactivate`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ title: 'Invalid state transition', code: 'invalid_state_transition' });
    expect(res.body.detail).toContain('verifying');
    expect(res.body.detail).toContain('inactive');
    expect((await sb.json('PATCH', `/v1/customers/${customerId}/activate`)).status).toBe(409);
    expect((await sb.json('PATCH', '/v1/customers/3b241101-e2bb-4255-8caf-4136c566a962/activate')).status).toBe(404);
  });
});

describe('idempotent creation', () => {
  it('a replay with the same Idempotency-Key answers the same customer and creates nothing more', async () => {
    const sb = createTestSandbox();
    const body = { chainId: testWallet('dora').chainId, externalId: 'dora' };
    const headers = { 'Idempotency-Key': '0b6a3f0e-8c2f-4a4e-9d7e-5f1c2b3a4d5e' };
    const first = await sb.json('POST', '/v1/customers', { body, headers });
    const again = await sb.json('POST', '/v1/customers', { body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(count(sb)).toBe(1);
    expect(eventsOf(sb, first.body.id)).toHaveLength(1);
  });
});

describe('/openapi.json', () => {
  it('documents the customer, account and card operations and schemas', async () => {
    const sb = createTestSandbox();
    const doc = (await sb.json('GET', '/openapi.json', { token: false })).body;
    for (const name of ['Customer', 'Account', 'Card', 'Address', 'OwnerChallenge', 'OwnerSignature']) expect(doc.components.schemas).toHaveProperty(name);
    const operations = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) =>
      Object.values(p).map((o) => o.operationId),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'createCustomer',
        'getCustomers',
        'getCustomer',
        'getCustomerChallenge',
        'signCustomerChallenge',
        'deactivateCustomer',
        'activateCustomer',
        'createCustomerAccount',
        'getCustomerAccounts',
        'getAccounts',
        'getAccount',
        'closeAccount',
        'getAccountChallenge',
        'signAccountChallenge',
        'deactivateAccount',
        'activateAccount',
        'createAccountCard',
        'getAccountCards',
        'getCards',
        'getCard',
        'deleteCard',
        'deactivateCard',
        'activateCard',
        'simulateVerifyCustomer',
        'simulateRejectCustomer',
        'simulateIssueCard',
        'simulateCardFail',
      ]),
    );
  });
});
