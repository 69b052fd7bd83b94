/** Programmes made over the control plane for a test, with requests to their API and control plane, and a customer verified in one. Not shipped. */
import { expect } from 'vitest';
import type { TestSandbox } from './harness.js';
import { proofFor, testWallet } from './world.js';

/** A programme made over the control plane, and requests to its API with a token for it. */
export async function programme(sb: TestSandbox, body: Record<string, unknown> = {}) {
  const created = await sb.json('POST', '/_sandbox/programmes', { token: false, body });
  expect(created.status).toBe(201);
  const { id, apiKey, apiSecret } = created.body as { id: string; apiKey: string; apiSecret: string };
  const token = (await sb.json('POST', '/v1/auth/token', { token: false, body: { apiKey, apiSecret } })).body.token as string;
  const api = (method: string, path: string, options: { body?: unknown } = {}) => sb.json(method, path, { ...options, token });
  const control = (method: string, path: string, options: { body?: unknown } = {}) =>
    sb.json(method, `/_sandbox${path}${path.includes('?') ? '&' : '?'}programme=${id}`, { ...options, token: false });
  return { id, apiKey, apiSecret, token, api, control, created: created.body };
}

/** A customer verified through the programme's own API and simulator. */
export async function verifiedCustomer(p: Awaited<ReturnType<typeof programme>>, seed: string) {
  const wallet = testWallet(seed);
  const created = await p.api('POST', '/v1/customers', { body: { chainId: wallet.chainId, externalId: seed } });
  expect(created.status).toBe(201);
  expect((await p.api('POST', `/v1/customers/${created.body.id}/challenge/sign`, { body: await proofFor(wallet, created.body.challenge) })).status).toBe(204);
  expect((await p.api('PATCH', `/v1/simulator/customers/${created.body.id}/verify`)).status).toBe(202);
  return created.body.id as string;
}
