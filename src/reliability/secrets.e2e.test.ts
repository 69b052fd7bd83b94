/**
 * No secret reaches the log: the built CLI runs a whole journey with `--json` logs — custom
 * credentials rotated, refused logins and tokens, a registered signing key, a customer, account,
 * card and payment with webhooks delivered, the control plane behind --admin-token (which guards
 * it on the API's own address, for the CLI client too) — and the captured output holds none of the
 * API secrets, tokens, the admin token, the JWT secret or the webhook private key.
 * `npm run build` first.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { startTestReceiver } from '../testing/receiver.js';
import { newSigningKey } from '../testing/signer.js';
import { runCommand } from '../testing/cli.js';
import { assertBuilt, startSandbox } from '../testing/spawn.js';
import { proofFor, testWallet } from '../testing/world.js';

const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const API_KEY = randomUUID();
const API_SECRET = `api-secret-${randomBytes(12).toString('hex')}`;
const ROTATED_SECRET = `rotated-secret-${randomBytes(12).toString('hex')}`;
const WRONG_SECRET = `wrong-secret-${randomBytes(12).toString('hex')}`;
const ADMIN_TOKEN = `admin-${randomBytes(12).toString('hex')}`;

it('logs a whole journey with --json without one secret in it', async () => {
  assertBuilt();
  const db = join(dir, 'sandbox.db');
  const webhookKeyFile = join(dir, 'webhook-key.pem');
  const webhookKey = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(webhookKeyFile, webhookKey);
  const receiver = await startTestReceiver(200);
  const sandbox = await startSandbox([
    '--db',
    db,
    '--verify',
    'warn',
    '--api-key',
    API_KEY,
    '--api-secret',
    API_SECRET,
    '--admin-token',
    ADMIN_TOKEN,
    '--webhook-key',
    webhookKeyFile,
  ]);
  const tokens: string[] = [];
  try {
    const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${sandbox.url}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const login = async (apiKey: string, apiSecret: string) => {
      const res = await send('POST', '/v1/auth/token', { apiKey, apiSecret });
      if (res.status === 200) tokens.push(res.body.token);
      return res;
    };
    const first = (await login(API_KEY, API_SECRET)).body.token as string;
    expect((await login(API_KEY, WRONG_SECRET)).status).toBe(401);
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });
    expect((await send('PUT', '/v1/auth/credentials', { apiKey: API_KEY, apiSecret: ROTATED_SECRET }, as(first))).status).toBe(204);
    expect((await send('GET', '/v1/customers', undefined, as(first))).status).toBe(401);
    expect((await send('GET', '/v1/customers', undefined, as(`${first}tampered`))).status).toBe(401);
    const token = (await login(API_KEY, ROTATED_SECRET)).body.token as string;
    const api = (method: string, path: string, body?: unknown) => send(method, path, body, as(token));
    const admin = (method: string, path: string, body?: unknown) => send(method, path, body, as(ADMIN_TOKEN));

    const integratorKey = newSigningKey();
    expect((await api('PUT', '/v1/auth/signing', { signingKeyId: integratorKey.keyId, signingKey: integratorKey.signingKey })).status).toBe(204);
    expect(
      (
        await api('PUT', '/v1/webhooks', {
          callbackUrl: `${receiver.url}/hook`,
          types: ['customer.updated', 'account.updated', 'card.updated', 'authorisation.updated', 'transaction.updated'],
        })
      ).status,
    ).toBe(200);
    const wallet = testWallet(randomUUID());
    const customer = (await api('POST', '/v1/customers', { chainId: wallet.chainId, externalId: randomUUID() })).body;
    expect((await api('POST', `/v1/customers/${customer.id}/challenge/sign`, await proofFor(wallet, customer.challenge))).status).toBe(204);
    expect((await api('PATCH', `/v1/simulator/customers/${customer.id}/verify`)).status).toBe(202);
    const account = (await api('POST', `/v1/customers/${customer.id}/accounts`, { type: 'card_account', currencies: ['EUR'] })).body;
    expect((await api('POST', `/v1/accounts/${account.id}/challenge/sign`, await proofFor(wallet, account.challenge))).status).toBe(204);
    expect((await send('POST', '/_sandbox/clock/advance', { by: '2s' }, as('not-the-admin-token'))).status).toBe(401);
    expect((await admin('POST', '/_sandbox/clock/advance', { by: '2s' })).status).toBe(200);
    const card = (
      await api('POST', `/v1/accounts/${account.id}/cards`, {
        type: 'virtual',
        billingAddress: { firstLine: '1 Test Street', city: 'London', country: 'GB', postCode: 'N1 1AA' },
      })
    ).body;
    expect((await api('PATCH', `/v1/simulator/cards/${card.id}/issue`)).status).toBe(202);
    expect((await api('POST', `/v1/simulator/cards/${card.id}/authorisation`, { amount: '10', currency: 'EUR' })).status).toBe(201);
    expect((await admin('POST', '/_sandbox/clock/advance', { by: '3s' })).status).toBe(200);
    await receiver.waitFor(10);

    // The control plane is on the API's own address and port, and the CLI client needs the token too
    // (run through the CLI's own entry, in this process).
    const clock = ['clock', '--url', sandbox.url, '--json'];
    expect((await runCommand([...clock, '--admin-token', ADMIN_TOKEN])).code).toBe(0);
    expect((await runCommand(clock)).code).not.toBe(0);
  } finally {
    await sandbox.stop();
    await receiver.close();
  }

  const jwtSecret = (() => {
    const sqlite = new Database(db, { readonly: true });
    try {
      return (sqlite.prepare("SELECT token_secret FROM programmes WHERE id = 'default'").get() as { token_secret: string }).token_secret;
    } finally {
      sqlite.close();
    }
  })();
  const log = `${sandbox.process.stdout()}\n${sandbox.process.stderr()}`;
  expect(log).toContain('"msg":"request"');
  const keyBody = webhookKey.split('\n').filter((line) => line && !line.startsWith('-----'));
  const secrets = [API_SECRET, ROTATED_SECRET, WRONG_SECRET, ADMIN_TOKEN, jwtSecret, ...tokens, ...tokens.map((t) => t.split('.')[2]!), ...keyBody];
  expect(tokens).toHaveLength(2);
  for (const secret of secrets) expect(log.includes(secret), `the log contains ${secret.slice(0, 12)}…`).toBe(false);
  expect(log).not.toMatch(/PRIVATE KEY/);
});
