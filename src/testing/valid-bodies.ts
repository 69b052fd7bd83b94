/**
 * A valid body for every operation that takes one, keyed by operationId: the operations of
 * /openapi.json and of the control plane's /_sandbox/openapi.json alike (a /_sandbox mirror of a /v1
 * operation shares its id, and its body). The hostile-input fuzzer (http/hostile.test.ts) sends each
 * as it is, then breaks it one field at a time. A new operation with a body adds its line here:
 * valid-bodies.test.ts names every operation of either document without one, and every body here
 * its schema or its route refuses. Built afresh per call, so that creates do not collide. Not shipped.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { DEAD_CALLBACK, SPARE_SIGNING_KEY, type HostileWorld } from './hostile-world.js';
import { BILLING_ADDRESS, DEFAULT_CHAIN, testWallet } from './world.js';

const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;
const randomSignature = () => randomBytes(65).toString('base64');
const STRANGER = testWallet('stranger').chainId;
const MERCHANT = { name: 'Corner Shop', mcc: 5411, country: 'FR' };
const webhookFaults = () => ({ duplicate: 0.5, reorder: 0.5, delay: '1s-2s', fail: { status: 503, times: 2 }, timeout: 0.1, seed: 1 });

type Body = Record<string, unknown>;

export const VALID_BODIES: Record<string, (world: HostileWorld) => Body> = {
  // /openapi.json
  getToken: () => ({ apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET }),
  updateCredentials: () => ({ apiKey: randomUUID(), apiSecret: 'another-secret' }),
  deleteCredentials: (world) => ({ apiKey: world.spareApiKey }),
  updateSigningKey: () => ({ signingKeyId: randomUUID(), signingKey: SPARE_SIGNING_KEY.signingKey }),
  deleteSigningKey: (world) => ({ signingKeyId: world.spareSigningKeyId }),
  createCustomer: () => ({ chainId: `${DEFAULT_CHAIN}:${randomAddress()}`, externalId: `ext-${randomUUID()}` }),
  // A stranger's signature: refused for what it is, after the body has been read.
  signCustomerChallenge: (world) => ({ ownerId: STRANGER, challenge: world.owner.customerChallenge, signature: randomSignature() }),
  signAccountChallenge: (world) => ({ ownerId: world.owner.chainId, challenge: world.owner.accountChallenge, signature: randomSignature() }),
  createCustomerAccount: () => ({ type: 'card_account', currencies: ['EUR'] }),
  createAccountCard: () => ({ type: 'virtual', billingAddress: { ...BILLING_ADDRESS } }),
  saveWebhook: () => ({ callbackUrl: DEAD_CALLBACK, types: ['card.updated'] }),
  simulateCardAuthorisation: () => ({ amount: '12.5', currency: 'GBP', capture: false, merchant: { ...MERCHANT } }),

  // /_sandbox/openapi.json
  createProgramme: () => ({ name: `fuzz-${randomUUID()}`, clock: '2026-03-01T09:00:00Z', randomSeed: 7, holdExpiry: '7d', startingBalance: '100' }),
  advanceClock: () => ({ by: '1s' }),
  resendEvents: () => ({ since: '2026-01-01T00:00:00Z', until: '2027-01-01T00:00:00Z', type: 'card.updated' }),
  setWebhookFaults: webhookFaults,
  setSubscriptionFaults: webhookFaults,
  // Latency alone, once: whatever a mutation leaves of it, no later request is answered 5xx for it.
  setApiFaults: () => ({ rules: [{ match: { method: 'GET', path: '/v1/chains' }, latency: '1ms', times: 1 }], seed: 1 }),
  seedWorld: () => ({ customers: [{ externalId: `seed-${randomUUID()}`, accounts: [{ currencies: ['EUR'], balance: '500', cards: [{}] }] }] }),
  saveSnapshot: () => ({ name: `fuzz-${randomUUID()}` }),
  restoreSnapshotFile: (world) => JSON.parse(world.snapshotFile) as Body,
  setFees: () => ({ partner: '0.5%', service: '0.10', network: '0.2%' }),
  // A part, not the last: the hold stays pending for the operations after it.
  simulateCardAuthorisationCapture: () => ({ amount: '1', final: false }),
  updateAuthorisationAmount: () => ({ amount: '12' }),
  forcePostTransaction: () => ({ amount: '3', currency: 'GBP', merchant: { ...MERCHANT } }),
  refundCard: (world) => ({ amount: '5', currency: 'EUR', merchant: { ...MERCHANT }, transactionId: world.ids.transactionId![0] }),
  setBalance: () => ({ amount: '250' }),
  setRates: () => ({ EUR: '0.95' }),
};

type Document = { paths: Record<string, Record<string, { operationId?: string; requestBody?: { content: Record<string, unknown> } }>> };

/** An operation of a document as the app serves it: `POST /v1/customers/:customerId/accounts`. */
export interface Operation {
  route: string;
  /** The document that declares it, and its path there. */
  document: 'api' | 'control';
  path: string;
  operationId: string;
  /** The media type of its body, when it takes one. */
  body: string | undefined;
}

/** Every operation of /openapi.json (served under /v1) and /_sandbox/openapi.json (whose paths hold /_sandbox). */
export function operationsOf(api: Document, control: Document): Operation[] {
  const documents = [
    ['api', '/v1', api],
    ['control', '', control],
  ] as const;
  return documents.flatMap(([name, prefix, document]) =>
    Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => typeof op === 'object' && op.operationId !== undefined)
        .map(([method, op]) => ({
          route: `${method.toUpperCase()} ${prefix}${path.replace(/\{(\w+)\}/g, ':$1')}`,
          document: name,
          path,
          operationId: op.operationId!,
          body: op.requestBody && Object.keys(op.requestBody.content)[0],
        })),
    ),
  );
}
