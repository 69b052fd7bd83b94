/**
 * The money path in the inspector (docs/inspector.md: The inspector; docs/money-path.md), in
 * Debian's Chromium against the built CLI: a card suspended and reinstated and a debit reversed from
 * the World view's buttons; a partial capture, a refund and fees from the Simulator's forms; and
 * the Readiness view naming the control that reaches a state never seen. Each result shows up
 * without a reload, as the API serves it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, launchBrowser, screenshot } from '../testing/browser.js';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';

let sandbox: RunningCli;
let browser: Browser;
let page: Page;
let errors: string[];
let cardId: string;
let heldId: string;
let debitId: string;

const control = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
};

const badge = (scope: ReturnType<Page['locator']>, text: string) => scope.locator('.badge', { hasText: new RegExp(`^${text}$`) });

beforeAll(async () => {
  assertBuilt();
  sandbox = await startSandbox(['--clock', '2026-03-01T09:00:00Z', '--random-seed', '40']);
  const seeded = await control('POST', '/seed', {
    customers: [
      {
        externalId: 'dora',
        accounts: [
          {
            currencies: ['EUR'],
            cards: [
              {
                authorisations: [
                  { amount: '20', currency: 'EUR', merchant: { name: 'Bakery' } },
                  { amount: '12', currency: 'EUR', status: 'pending' },
                ],
              },
            ],
          },
        ],
      },
    ],
  });
  expect(seeded.status).toBe(201);
  const card = seeded.body.customers[0].accounts[0].cards[0];
  cardId = card.id;
  debitId = card.authorisations[0].transaction.id;
  heldId = card.authorisations[1].id;
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 880 }, colorScheme: 'light' });
  errors = errorsOf(page);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

describe('the money path in the inspector', () => {
  it("suspends and reinstates a card, and reverses a debit, from the World view's buttons", async () => {
    await page.goto(`${sandbox.url}/_sandbox/ui/#/world/${cardId}`);
    const card = page.locator('.tree li.card');
    await badge(card, 'active').waitFor();
    await page.getByRole('button', { name: 'Suspend card' }).click();
    await badge(card, 'suspended').waitFor();
    await page.getByRole('button', { name: 'Reinstate card' }).click();
    await badge(card, 'active').waitFor();
    expect((await control('GET', '/world')).body.customers[0].accounts[0].cards[0].status).toBe('active');

    await page.goto(`${sandbox.url}/_sandbox/ui/#/world/${debitId}`);
    const debit = page.locator(`.tree li.transaction`, { hasText: '20 EUR' });
    await badge(debit, 'processed').waitFor();
    await page.getByRole('button', { name: 'Reverse' }).click();
    await badge(debit, 'reversing').waitFor();
    await control('POST', '/clock/advance', { by: '1s' });
    await badge(debit, 'reversed').waitFor();
    await page.locator('.detail-pane .plain-list li', { hasText: 'transaction.updated' }).nth(3).waitFor();
    await screenshot(page, 'world-reversed');
  });

  it('captures part of a hold, refunds on the card and sets fees from the Simulator', async () => {
    await page.goto(`${sandbox.url}/_sandbox/ui/#/simulator`);
    await page.locator('#partial-capture').fill(heldId);
    await page.getByLabel('Amount (its currency; empty for all)').fill('5');
    await page
      .locator('form', { has: page.locator('#partial-capture') })
      .getByRole('button', { name: 'Capture' })
      .click();
    await page.getByRole('status').filter({ hasText: 'Capturing' }).first().waitFor();

    await page.getByLabel('network').fill('1%');
    await page.getByRole('button', { name: 'Save fees' }).click();
    await page.getByRole('status').filter({ hasText: 'network 1%' }).waitFor();
    expect((await control('GET', '/fees')).body).toEqual({ network: '1%' });

    await page.locator('#refund-card').fill(cardId);
    await page.locator('#refund-transaction').fill(debitId);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    // The debit was reversed: nothing is left to give back.
    await page.getByText(/is reversed; a refund follows a debit that is processed/).waitFor();
    await page.locator('#refund-transaction').fill('');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /a credit of 5 EUR/ })
      .waitFor();
    await screenshot(page, 'simulator-money');

    await control('POST', '/clock/advance', { by: '1s' });
    const transactions = (await control('GET', '/world')).body.customers[0].accounts[0].cards[0].transactions as any[];
    expect(transactions.find((t) => t.direction === 'credit')).toMatchObject({ amount: '5', fees: [{ type: 'network', tokenAmount: '0.05' }] });
    expect(transactions.find((t) => t.authorisationId === heldId)).toMatchObject({
      direction: 'debit',
      amount: '5',
      fees: [{ type: 'network', tokenAmount: '0.05' }],
    });
  });

  it('names, in Readiness, the control that reaches a state never seen', async () => {
    await page.goto(`${sandbox.url}/_sandbox/ui/#/readiness`);
    const hints = page.locator('.readiness ul.reach');
    await hints.first().waitFor();
    expect(await page.locator('.readiness').textContent()).toMatch(/failed: PATCH \/_sandbox\/simulator\/accounts\/\{id\}\/fail/);
    expect(errors).toEqual([]);
  });
});
