/**
 * The inspector in a real browser against the built CLI (docs/inspector.md: The inspector), as a new user meets
 * it: a sandbox in --verify strict, an integration that signs its requests with card-sandbox/client
 * and receives webhooks on a real loopback receiver. The page verifies a customer the API created
 * and shows its status, its customer.updated event and the delivery attempt without a reload;
 * shows the signature base the sandbox computed for a refused request; and advances the clock three
 * years until a card expires. Screenshots of every view are taken on the way.
 */
import { createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../client/index.js';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { errorsOf, newPage, requestsOf, screenshot } from '../testing/browser.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';
import { until } from '../testing/wait.js';
import { testWallet } from '../testing/world.js';

const TYPES = ['customer.updated', 'account.updated', 'card.updated', 'authorisation.updated', 'transaction.updated'];

let sandbox: RunningCli;
let receiver: Receiver;
/** A second receiver that answers 503: its deliveries fail and are retried. */
let failing: Receiver;
let page: Page;
let inspector: string;
const keyId = randomUUID();
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });

/** A fresh token: time travel expires them. */
async function token(): Promise<string> {
  const auth = await fetch(`${sandbox.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET }),
  });
  return ((await auth.json()) as { token: string }).token;
}

/** A /v1 call signed as an integrator signs it, with card-sandbox/client. */
async function api(method: string, path: string, body?: unknown, key: KeyObject = privateKey) {
  const url = `${sandbox.url}/v1${path}`;
  const signed = signRequest({ method, url, body, keyId, privateKey: key, headers: { Authorization: `Bearer ${await token()}` } });
  const res = await fetch(url, signed);
  const text = await res.text();
  return { status: res.status, headers: res.headers, sent: signed, body: text ? JSON.parse(text) : undefined };
}

const control = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

let seeded: { customers: { id: string; accounts: { cards: { id: string }[] }[] }[] };
let pageRequests: string[];
let pageErrors: string[];

beforeAll(async () => {
  assertBuilt();
  receiver = await startTestReceiver(200);
  failing = await startTestReceiver(503);
  sandbox = await startSandbox(['--verify', 'strict', '--clock', '2026-03-01T09:00:00Z', '--random-seed', '18']);
  inspector = (JSON.parse(sandbox.process.stdout().split('\n')[0]!) as { inspector: string }).inspector;

  // The integration: its signing key, its webhook, and a world with one card to watch expire.
  const pem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  const register = await fetch(`${sandbox.url}/v1/auth/signing`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await token()}` },
    body: JSON.stringify({ signingKeyId: keyId, signingKey: Buffer.from(pem).toString('base64') }),
  });
  expect(register.status).toBe(204);
  expect((await api('PUT', '/webhooks', { callbackUrl: `${receiver.url}/hooks`, types: TYPES })).status).toBe(200);
  expect((await api('PUT', '/webhooks', { callbackUrl: `${failing.url}/crm`, types: ['customer.updated'] })).status).toBe(200);
  const seed = await control('POST', '/seed', {
    customers: [
      { externalId: 'bob', accounts: [{ currencies: ['EUR'], cards: [{}] }] },
      { externalId: 'carol', status: 'initiating' },
    ],
  });
  expect(seed.status).toBe(201);
  seeded = seed.body;
  await api('POST', `/simulator/cards/${seeded.customers[0]!.accounts[0]!.cards[0]!.id}/authorisation`, { amount: '12.50', currency: 'USD' });

  page = await newPage({ viewport: { width: 1400, height: 880 }, colorScheme: 'light' });
  pageRequests = requestsOf(page);
  pageErrors = errorsOf(page);
});

afterAll(async () => {
  await page?.close();
  await sandbox?.stop();
  await receiver?.close();
  await failing?.close();
});

const badge = (scope: ReturnType<Page['locator']>, text: string) => scope.locator('.badge', { hasText: new RegExp(`^${text}$`) });

describe('the inspector', () => {
  it('is printed in the ready line and loads, offline, from the sandbox alone', async () => {
    expect(inspector).toBe(`${sandbox.url}/_sandbox/ui/`);
    await page.goto(inspector);
    await page.getByRole('link', { name: /Overview/ }).waitFor();
    await badge(page.locator('.health'), 'connected').waitFor();
    await page.evaluate(() => ((globalThis as unknown as { unreloaded: boolean }).unreloaded = true));
  });

  it('verifies a customer the API created, and shows its status, its event and the delivery attempt without a reload', async () => {
    const wallet = testWallet('alice');
    const created = await api('POST', '/customers', { chainId: wallet.chainId, externalId: 'alice' });
    expect(created.status).toBe(201);

    await page.keyboard.press('2');
    const alice = page.locator('.tree li.customer', { hasText: 'alice' });
    await badge(alice, 'initiating').waitFor();
    await alice.locator('a').click();
    await page.getByRole('button', { name: 'Verify customer' }).click();
    await badge(alice, 'active').waitFor();
    await page.locator('.detail-pane .plain-list li', { hasText: 'customer.updated' }).nth(1).waitFor();
    const received = () => receiver.requests.map((r) => JSON.parse(r.body.toString('utf8')) as { id: string; status: string });
    await until(() => received().some((body) => body.id === created.body.id && body.status === 'active'), "the verified customer's webhook");
    await screenshot(page, 'world');

    await page.keyboard.press('3');
    const verifiedEvent = (await control('GET', `/events?entityId=${created.body.id}&limit=1`)).body[0];
    await page.locator(`#row-${verifiedEvent.id}`).click();
    const delivery = page.locator('.delivery', { hasText: `${receiver.url}/hooks` });
    await badge(delivery, 'delivered').waitFor();
    await badge(delivery.locator('table.attempts'), 'HTTP 200').waitFor();
    // The other subscriber answered 503 twice (at once, then the immediate retry); the next retry waits for the clock.
    const retrying = page.locator('.delivery', { hasText: `${failing.url}/crm` });
    await badge(retrying, 'retrying').waitFor();
    await badge(retrying.locator('table.attempts'), 'HTTP 503').nth(1).waitFor();
    await retrying.getByText(/^Next attempt at 2026-03-01 09:00:0\d UTC/).waitFor();
    expect(await page.locator('.detail-pane pre').last().textContent()).toContain('"status": "active"');
    await screenshot(page, 'events');
    expect(await page.evaluate(() => (globalThis as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
  });

  it('opens a refused signed request and shows the signature base the sandbox computed beside the headers it received', async () => {
    const { privateKey: wrong } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const refused = await api('POST', '/customers', { chainId: testWallet('mallory').chainId, externalId: 'mallory' }, wrong);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_signature');

    await page.keyboard.press('4');
    await page.locator('.vrow', { hasText: 'POST' }).filter({ hasText: '400' }).first().click();
    const base = page.locator('pre.signature-base');
    await base.waitFor();
    const host = new URL(sandbox.url).host;
    const input = refused.sent.headers['Signature-Input']!;
    expect(await base.textContent()).toBe(
      [
        '"@method": POST',
        `"@authority": ${host}`,
        '"@path": /v1/customers',
        `"content-digest": ${refused.sent.headers['Content-Digest']}`,
        `"@signature-params": ${input.replace(/^sig=/, '')}`,
      ].join('\n'),
    );
    const received = await page.locator('pre.received').textContent();
    expect(received).toContain(`Signature-Input: ${input}`);
    expect(received).toContain(`Host: ${host}`);
    expect(received).not.toMatch(/authorization|bearer/i);
    await screenshot(page, 'requests');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'requests-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the simulator with what each action applies to', async () => {
    await page.keyboard.press('5');
    await page.locator('#kyc-verdict-options option').first().waitFor({ state: 'attached' });
    expect(await page.locator('#kyc-verdict-options option').getAttribute('label')).toMatch(/^carol \(initiating\)$/);
    await page.locator('#kyc-verdict').fill(seeded.customers[1]!.id);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'KYC passed' }).waitFor();
    await screenshot(page, 'simulator');
  });

  it('advances the clock three years from the page, and the card expires', async () => {
    const cardId = seeded.customers[0]!.accounts[0]!.cards[0]!.id;
    await page.keyboard.press('1');
    await page.getByLabel('Advance to').fill('2029-05-01');
    await page.getByLabel('Advance to').press('Enter');
    await page.getByText(/^Now 2029-05-01 00:00:00 UTC/).waitFor({ timeout: 60_000 });
    await page.getByRole('link', { name: /World/ }).click();
    const card = page.locator('.tree li.card', { hasText: '03/2029' });
    await badge(card, 'terminated').waitFor();
    expect((await api('GET', `/cards/${cardId}`)).body.status).toBe('terminated');
    await card.locator('a').click();
    await screenshot(page, 'world-expired');

    // Three years of retries later, the failing subscriber's deliveries were given up: the overview says so.
    await page.keyboard.press('1');
    await page
      .locator('.callout', { hasText: 'Last failing webhook delivery' })
      .locator('.badge', { hasText: /^failed$/ })
      .waitFor();
    await page.locator('.callout', { hasText: 'Last refused request' }).waitFor();
    await screenshot(page, 'overview');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'overview-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('asked nothing of any other origin, and threw nothing', () => {
    expect(pageRequests.length).toBeGreaterThan(5);
    expect(pageRequests.filter((url) => !url.startsWith(`${sandbox.url}/_sandbox/`))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
