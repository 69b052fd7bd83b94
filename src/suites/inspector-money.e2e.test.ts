/**
 * The money path in the inspector (docs/inspector.md: The inspector; docs/money-path.md), in
 * Debian's Chromium against the built CLI: a card suspended and reinstated and a debit reversed from
 * the World view's buttons; a part of a hold captured, a refund, fees and a moved rate from the
 * Simulator's forms; an account's funds shown and its balance set, a hold's amount updated and its
 * last part captured, and a debit force posted from the World view's; and the Readiness view
 * naming the control that reaches a state never seen. Each result shows up
 * without a reload, as the API serves it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, newPage, screenshot } from '../testing/browser.js';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';

let sandbox: RunningCli;
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
  page = await newPage({ viewport: { width: 1400, height: 880 }, colorScheme: 'light' });
  errors = errorsOf(page);
});

afterAll(async () => {
  await page?.close();
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
    // A part, not the last: the rest stays held for the World view's capture below.
    await page.getByRole('checkbox', { name: /final: the last capture/ }).uncheck();
    await page
      .locator('form', { has: page.locator('#partial-capture') })
      .getByRole('button', { name: 'Capture' })
      .click();
    await page.getByRole('status').filter({ hasText: 'the authorisation stays pending with the rest held' }).waitFor();

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
    // A part's debit is made at once, before the fees were set: it carries none.
    expect(transactions.find((t) => t.authorisationId === heldId)).toMatchObject({ direction: 'debit', amount: '5', fees: [] });
  });

  it("shows an account's funds and sets its balance, updates a hold and captures its last part, and force posts a debit, from the World view", async () => {
    const accountId = (await control('GET', '/world')).body.customers[0].accounts[0].id as string;
    const balanceOf = async () =>
      (await control('GET', `/simulator/accounts/${accountId}/balance`)).body as { balance: string; held: string; available: string };
    const funds = (name: string, value: string) => page.locator(`.detail-pane [data-funds="${name}"]`, { hasText: new RegExp(`^${value} EUR$`) });
    await page.goto(`${sandbox.url}/_sandbox/ui/#/world/${accountId}`);
    // The part captured above left 12 - 5 = 7 EUR held.
    const before = await balanceOf();
    expect(before.held).toBe('7');
    await funds('balance', before.balance).waitFor();
    await funds('held', '7').waitFor();
    await funds('available', before.available).waitFor();
    await page.getByLabel('Balance (EUR)').fill('100');
    await page.getByRole('button', { name: 'Set balance' }).click();
    await page.getByRole('status').filter({ hasText: 'The balance is 100 EUR: 7 held, 93 available.' }).waitFor();
    await funds('available', '93').waitFor();
    expect(await balanceOf()).toEqual({ balance: '100', held: '7', available: '93' });
    await screenshot(page, 'world-funds');

    await page.goto(`${sandbox.url}/_sandbox/ui/#/world/${heldId}`);
    await page.getByLabel('New amount (EUR)').fill('10');
    await page.getByRole('button', { name: 'Update amount' }).click();
    await page.getByRole('status').filter({ hasText: 'Still pending, now 10 EUR' }).waitFor();
    // 10 authorised, 5 of it captured: 5 held.
    expect(await balanceOf()).toMatchObject({ held: '5' });
    await page.getByRole('button', { name: 'Capture the last' }).click();
    // Capturing, the hold leaves the forms of a pending one: the tree says what became of it.
    const hold = page.locator('.tree li.authorisation', { hasText: '10 EUR' });
    await badge(hold, 'capturing').waitFor();
    await control('POST', '/clock/advance', { by: '1s' });
    await badge(hold, 'captured').waitFor();
    const card = () => control('GET', '/world').then((w) => w.body.customers[0].accounts[0].cards[0]);
    expect((await card()).transactions.filter((t: any) => t.authorisationId === heldId).map((t: any) => t.amount)).toEqual(['5', '5']);
    expect(await balanceOf()).toMatchObject({ held: '0' });

    await page.goto(`${sandbox.url}/_sandbox/ui/#/world/${cardId}`);
    await page.getByLabel('Amount', { exact: true }).fill('7');
    await page.getByLabel('Merchant name (optional)').fill('Late Cafe');
    await page.getByRole('button', { name: 'Force post' }).click();
    // The programme's 1 % network fee is inside what leaves the account.
    await page.getByRole('status').filter({ hasText: 'with no authorisation: 7.07 EUR taken' }).waitFor();
    await page.locator('.tree li.transaction', { hasText: '7 EUR' }).waitFor();
    const forced = (await card()).transactions.find((t: any) => t.merchant.name === 'Late Cafe');
    expect(forced).toMatchObject({ direction: 'debit', amount: '7', tokenAmount: '7.07' });
    expect(forced.authorisationId).toBeUndefined();
  });

  it('moves an exchange rate and puts the table back from the Simulator', async () => {
    await page.goto(`${sandbox.url}/_sandbox/ui/#/simulator`);
    const rates = page.locator('section', { has: page.getByRole('heading', { name: 'Exchange rates' }) });
    await rates.getByText('The shipped table, unmoved.').waitFor();
    await rates.getByLabel('Currency').fill('gbp');
    await rates.getByLabel('Units per USD').fill('0.8');
    await rates.getByRole('button', { name: 'Move rate' }).click();
    await rates.getByRole('status').filter({ hasText: 'Conversions from now on use GBP 0.8 per USD.' }).waitFor();
    await rates.getByText('Moved from the table: GBP 0.8 per USD.').waitFor();
    expect((await control('GET', '/rates')).body.moved).toEqual({ GBP: '0.8' });
    await rates.getByRole('button', { name: 'Back to the table' }).click();
    await rates.getByRole('status').filter({ hasText: 'Back to the shipped table.' }).waitFor();
    expect((await control('GET', '/rates')).body.moved).toEqual({});
  });

  it('names, in Readiness, the control that reaches a state never seen', async () => {
    await page.goto(`${sandbox.url}/_sandbox/ui/#/readiness`);
    const hints = page.locator('.readiness ul.reach');
    await hints.first().waitFor();
    expect(await page.locator('.readiness').textContent()).toMatch(/failed: PATCH \/_sandbox\/simulator\/accounts\/\{id\}\/fail/);
    expect(errors).toEqual([]);
  });
});
