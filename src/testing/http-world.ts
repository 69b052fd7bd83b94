/**
 * A programme's world built over real HTTP, as an integrator's test suite builds it: a token from
 * its credentials, a customer proven by a wallet and verified by the simulator, an account deployed,
 * a card issued, an authorisation. For e2e tests against a spawned sandbox in --verify off. Not
 * shipped.
 */
import { proofFor, testWallet } from './world.js';
import { HUNG_MS } from './wait.js';

export interface ProgrammeAccess {
  /** The sandbox, e.g. http://127.0.0.1:4242. */
  url: string;
  /** The programme's id ("default" for the default one). */
  id: string;
  apiKey: string;
  apiSecret: string;
}

export interface Answer<T = any> {
  status: number;
  body: T;
}

async function send(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The programme's API (a fresh token per call, so that time travel never expires it) and its control plane. */
export function httpProgramme(access: ProgrammeAccess) {
  const token = async () =>
    (await send(`${access.url}/v1/auth/token`, 'POST', {}, { apiKey: access.apiKey, apiSecret: access.apiSecret })).body.token as string;
  const api = async (method: string, path: string, body?: unknown) =>
    send(`${access.url}/v1${path}`, method, { Authorization: `Bearer ${await token()}` }, body);
  const control = (method: string, path: string, body?: unknown) => send(`${access.url}/_sandbox${path}`, method, { 'Sandbox-Programme': access.id }, body);
  const expectOk = (answer: Answer, what: string) => {
    if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  return { api, control, expectOk };
}

export type HttpProgramme = ReturnType<typeof httpProgramme>;

export interface Journey {
  customerId: string;
  accountId: string;
  cardId: string;
  authorisationId: string;
}

/** Asks until `ready` holds: for a programme whose clock runs, what falls due happens in real time. */
async function until(ready: () => Promise<boolean>, what: string, timeoutMs = HUNG_MS): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Customer → signed challenge → verified → account → signed challenge → deployed → card → issued →
 * authorised, captured and settled. The clock moves on with `advance` (time travel); without it,
 * the journey waits for real time, as it would on a programme whose clock runs.
 */
export async function journey(p: HttpProgramme, seed: string, advance?: (by: string) => Promise<void>): Promise<Journey> {
  const wallet = testWallet(seed);
  const customer = p.expectOk(await p.api('POST', '/customers', { chainId: wallet.chainId, externalId: seed }), 'create customer');
  p.expectOk(await p.api('POST', `/customers/${customer.id}/challenge/sign`, await proofFor(wallet, customer.challenge)), 'sign customer challenge');
  p.expectOk(await p.control('PATCH', `/simulator/customers/${customer.id}/verify`), 'verify');
  const account = p.expectOk(await p.api('POST', `/customers/${customer.id}/accounts`, { type: 'card_account', currencies: ['EUR'] }), 'create account');
  p.expectOk(await p.api('POST', `/accounts/${account.id}/challenge/sign`, await proofFor(wallet, account.challenge)), 'sign account challenge');
  if (advance) await advance('2s');
  else await until(async () => (await p.api('GET', `/accounts/${account.id}`)).body.status === 'active', 'the account to deploy');
  const card = p.expectOk(
    await p.api('POST', `/accounts/${account.id}/cards`, {
      type: 'virtual',
      billingAddress: { firstLine: '1 Test Street', city: 'London', country: 'GB', postCode: 'N1 1AA' },
    }),
    'create card',
  );
  p.expectOk(await p.control('PATCH', `/simulator/cards/${card.id}/issue`), 'issue');
  const authorisation = p.expectOk(await p.api('POST', `/simulator/cards/${card.id}/authorisation`, { amount: '12.50', currency: 'EUR' }), 'authorise');
  if (advance) await advance('2s');
  else await until(async () => (await p.api('GET', `/cards/${card.id}/transactions`)).body[0]?.status === 'processed', 'the transaction to settle');
  return { customerId: customer.id, accountId: account.id, cardId: card.id, authorisationId: authorisation.id };
}
