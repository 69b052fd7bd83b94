/**
 * An integrator's API client, written as one would be outside the sandbox: plain fetch, node:crypto
 * keys and the shipped `signRequest` (card-sandbox/client). Done right, it signs every request, sends
 * one Idempotency-Key per write and the same one on each retry, retries a 5xx, a 429, a dropped
 * connection or a timeout after Retry-After, and on "the token expired" renews its token once
 * however many calls are waiting. Each flaw the go-live report must catch can be switched on.
 * For the report's integration tests (docs/go-live.md: Before you go live); not shipped.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { signRequest } from '../../client/sign.js';

export interface ClientFlaws {
  /** A new Idempotency-Key on every attempt, retries included. */
  newKeyPerAttempt?: boolean;
  /** Retries this many ms after a failure, whatever Retry-After says. */
  retryAfterMs?: number;
  /** On "the token expired", sends the call again this many times with the same token before renewing. */
  retriesWithExpiredToken?: number;
  /** Gives up waiting for the answer to a call to a path `timeout.path` matches after `timeout.ms`, and sends it again. */
  timeout?: { ms: number; path: RegExp };
}

export interface IntegrationClient {
  /** The answer's JSON (undefined when it has no body). */
  call(method: string, path: string, body?: unknown): Promise<any>;
  /** Tokens asked for after the first. */
  readonly renewals: number;
}

const MAX_ATTEMPTS = 8;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function integrationClient(base: string, credentials: { apiKey: string; apiSecret: string }, flaws: ClientFlaws = {}): Promise<IntegrationClient> {
  const fetchToken = async (): Promise<string> => {
    const res = await fetch(`${base}/v1/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(credentials) });
    if (!res.ok) throw new Error(`POST /v1/auth/token → ${res.status} ${await res.text()}`);
    return ((await res.json()) as { token: string }).token;
  };
  let token = fetchToken();
  let renewals = 0;
  // Single flight: whoever finds the token it used expired asks for a new one; the rest wait for it.
  const renew = (stale: Promise<string>) => {
    if (token === stale) {
      token = fetchToken();
      renewals++;
    }
    return token;
  };

  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const keyId = randomUUID();
  const registered = await fetch(`${base}/v1/auth/signing`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await token}` },
    body: JSON.stringify({ signingKeyId: keyId, signingKey: Buffer.from(publicKey.export({ type: 'spki', format: 'pem' })).toString('base64') }),
  });
  if (!registered.ok) throw new Error(`PUT /v1/auth/signing → ${registered.status}`);

  async function call(method: string, path: string, body?: unknown) {
    const url = `${base}/v1${path}`;
    const key = WRITES.has(method) ? randomUUID() : undefined;
    let expiredTries = 0;
    for (let attempt = 1; ; attempt++) {
      const used = token;
      const signed = signRequest({
        method,
        url,
        body,
        keyId,
        privateKey,
        idempotencyKey: key === undefined ? false : flaws.newKeyPerAttempt && attempt > 1 ? randomUUID() : key,
        headers: { Authorization: `Bearer ${await used}` },
      });
      let res: Response | undefined;
      try {
        res = await fetch(url, { ...signed, ...(flaws.timeout?.path.test(path) && { signal: AbortSignal.timeout(flaws.timeout.ms) }) });
      } catch {
        // A connection closed without an answer, or this client's own timeout: try again.
      }
      if (res?.status === 401) {
        const problem = (await res.json()) as { detail?: string };
        if (!problem.detail?.startsWith('the token expired')) throw new Error(`${method} ${path} → 401 ${problem.detail}`);
        if (expiredTries++ >= (flaws.retriesWithExpiredToken ?? 0)) await renew(used);
        continue;
      }
      if (res === undefined || res.status === 429 || res.status >= 500) {
        if (attempt >= MAX_ATTEMPTS) throw new Error(`${method} ${path}: no answer after ${attempt} attempts`);
        await res?.body?.cancel();
        const retryAfter = Number(res?.headers.get('Retry-After') ?? 0);
        await sleep(flaws.retryAfterMs ?? (retryAfter > 0 ? retryAfter * 1000 : 100));
        continue;
      }
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
      const text = await res.text();
      return text === '' ? undefined : JSON.parse(text);
    }
  }

  return {
    call,
    get renewals() {
      return renewals;
    },
  };
}
