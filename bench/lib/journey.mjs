/**
 * The full integrator journey through /v1, as a client drives it: customer → challenge signed by
 * the wallet (viem, EIP-191 personal_sign) → verified (simulator) → account → its challenge
 * signed → deployed → card → issued (simulator) → authorised (simulator). The sandbox clock is
 * frozen (`--clock now`); deployment needs 2 s of sandbox time, which a shared coordinator gives
 * with POST /_sandbox/clock/advance — one advance serves every journey waiting at that moment.
 */
import { randomUUID } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { call } from './sandbox.mjs';

const CHAIN = 'eip155:11155111';
const BILLING_ADDRESS = { firstLine: '1 Bench Street', city: 'London', country: 'GB', postCode: 'N1 1AA' };
const DEPLOYMENT = '2s';

/** base64 of the 65 raw bytes r‖s‖v of personal_sign over the decoded challenge. */
async function signChallenge(wallet, challenge) {
  const hex = await wallet.signMessage({ message: { raw: new Uint8Array(Buffer.from(challenge, 'base64')) } });
  return Buffer.from(hex.slice(2), 'hex').toString('base64');
}

/** Advances the clock for every journey waiting for its account to deploy; one advance at a time. */
export function deploymentClock(url) {
  let waiting = [];
  let running;
  let advances = 0;
  const drain = async () => {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await call(url, 'POST', '/_sandbox/clock/advance', { body: { by: DEPLOYMENT } });
        advances++;
        for (const { resolve } of batch) resolve();
      } catch (error) {
        for (const { reject } of batch) reject(error);
      }
    }
    running = undefined;
  };
  return {
    /** Resolves once the clock has moved 2 s past the moment of the call. */
    deployed: () =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        running ??= drain();
      }),
    get advances() {
      return advances;
    },
  };
}

/** One journey; resolves with the authorisation, throws at the first unexpected answer. */
export async function journey(url, token, clock, n) {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const chainId = `${CHAIN}:${wallet.address}`;
  // Every call is a POST or a PATCH: each with an Idempotency-Key of its own, as clients send them.
  const opts = (body, expect) => ({ token, body, expect, headers: { 'Idempotency-Key': randomUUID() } });

  const customer = await call(url, 'POST', '/v1/customers', opts({ chainId, externalId: `journey-${n}-${wallet.address}` }));
  const customerProof = { ownerId: chainId, challenge: customer.challenge, signature: await signChallenge(wallet, customer.challenge) };
  await call(url, 'POST', `/v1/customers/${customer.id}/challenge/sign`, opts(customerProof, 204));
  await call(url, 'PATCH', `/v1/simulator/customers/${customer.id}/verify`, opts(undefined, 202));

  const account = await call(url, 'POST', `/v1/customers/${customer.id}/accounts`, opts({ type: 'card_account', currencies: ['EUR'] }));
  const accountProof = { ownerId: chainId, challenge: account.challenge, signature: await signChallenge(wallet, account.challenge) };
  await call(url, 'POST', `/v1/accounts/${account.id}/challenge/sign`, opts(accountProof, 204));
  await clock.deployed();

  const card = await call(url, 'POST', `/v1/accounts/${account.id}/cards`, opts({ type: 'virtual', billingAddress: BILLING_ADDRESS }));
  await call(url, 'PATCH', `/v1/simulator/cards/${card.id}/issue`, opts(undefined, 202));
  const authorisation = await call(url, 'POST', `/v1/simulator/cards/${card.id}/authorisation`, opts({ amount: '12.5', currency: 'EUR' }));
  if (authorisation.status !== 'pending') throw new Error(`the authorisation is ${authorisation.status}, not pending`);
  return authorisation;
}

/**
 * `concurrency` workers each running journeys back to back for `seconds`; journeys/s counts the
 * completed ones over the elapsed time (a journey in flight at the end is waited for and counted).
 */
export async function runJourneys(url, token, { concurrency, seconds }) {
  const clock = deploymentClock(url);
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let done = 0;
  let next = 0;
  const failures = [];
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        await journey(url, token, clock, next++);
        done++;
      } catch (error) {
        failures.push(error.message);
        if (failures.length > 10) return;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  return { journeys: done, perSecond: done / elapsed, advances: clock.advances, failures };
}
