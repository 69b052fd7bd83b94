/**
 * The inspector at scale and behind a guard (docs/inspector.md: The inspector), in Debian's Chromium against
 * the built CLI: a timeline of more than 1,000 events draws only the rows in view, is driven from
 * the keyboard, grows live and empties on a reset; a sandbox started with --admin-token asks for it; the programme
 * switcher shows another programme's world, and late answers for the one shown before change nothing.
 */
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, newPage } from '../testing/browser.js';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';

/** Each page in a context of its own, closed after the file whatever happened. */
const pages: Page[] = [];
const running: RunningCli[] = [];
/** The sandbox of the timeline and of Readiness, which looks at a programme of its own. */
let home: Awaited<ReturnType<typeof sandbox>>;

beforeAll(async () => {
  assertBuilt();
  home = await sandbox();
});

afterAll(async () => {
  await Promise.all(pages.map((page) => page.close()));
  await Promise.all(running.map((s) => s.stop()));
});

async function sandbox(args: string[] = []) {
  const s = await startSandbox(['--clock', '2026-03-01T09:00:00Z', ...args]);
  running.push(s);
  const control = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${s.url}/_sandbox${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { url: s.url, control };
}

/** A seed world of `n` active customers, each with an active account and card: seven events each. */
const customers = (n: number, from = 0) => ({
  customers: Array.from({ length: n }, (_, i) => ({ externalId: `user-${from + i}`, accounts: [{ currencies: ['EUR'], cards: [{}] }] })),
});

/** A new page, closed after the file, with the errors its script throws. */
async function blank(): Promise<{ page: Page; errors: string[] }> {
  const page = await newPage({ viewport: { width: 1300, height: 800 } });
  pages.push(page);
  return { page, errors: errorsOf(page) };
}

async function open(url: string): Promise<{ page: Page; errors: string[] }> {
  const opened = await blank();
  await opened.page.goto(url);
  return opened;
}

/**
 * Holds the page's requests to each of `paths` (under /_sandbox) that `which` picks until
 * `release()`; `late` gives the first such answer to each path once the page has it.
 */
async function hold(page: Page, paths: string[], which: (request: Request) => boolean) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  for (const path of paths)
    await page.route(`**/_sandbox/${path}`, async (route) => {
      if (which(route.request())) await released;
      await route.continue();
    });
  const late = Promise.all(paths.map((path) => page.waitForResponse((res) => res.url().endsWith(`/_sandbox/${path}`) && which(res.request()))));
  return { release, late };
}

describe('a timeline of more than 1,000 events', () => {
  it('draws only the rows in view, moves from the keyboard, loads older events, grows live and empties on a reset', async () => {
    const { url, control } = home;
    expect((await control('POST', '/seed', customers(150))).status).toBe(201);
    const { page, errors } = await open(`${url}/_sandbox/ui/#/events`);
    await page.getByText('1,000 events · 0 failing').waitFor();
    const drawn = () => page.locator('.vrow').count();
    expect(await drawn()).toBeLessThan(60);

    // From the keyboard: the list, then the newest event, then the oldest loaded.
    await page.getByRole('listbox', { name: 'Events, newest first' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.locator('.vrow[aria-selected="true"]').waitFor();
    await page.getByRole('button', { name: 'Resend' }).waitFor();
    await page.keyboard.press('End');
    const events = (await control('GET', '/events?limit=1000')).body as { id: string }[];
    await page.locator(`#row-${events.at(-1)!.id}[aria-selected="true"]`).waitFor();
    await page.waitForURL(new RegExp(`#/events/${events.at(-1)!.id}$`));
    expect(await drawn()).toBeLessThan(60);

    await page.getByRole('button', { name: 'Load older events' }).click();
    await page.getByText('1,050 events · 0 failing').waitFor();
    expect((await control('POST', '/seed', customers(1, 150))).status).toBe(201);
    await page.getByText('1,057 events · 0 failing').waitFor();
    expect(await drawn()).toBeLessThan(60);

    await page.keyboard.press('/');
    expect(await page.getByLabel('Entity id').evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true);

    // A reset from elsewhere empties the page too.
    expect((await control('POST', '/reset')).status).toBe(200);
    await page.getByText(/^No events yet/).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('--admin-token and programmes', () => {
  it('asks for the admin token, refuses a wrong one, and switches programmes', async () => {
    const { url, control } = await sandbox(['--admin-token', 's3cret']);
    const auth = { Authorization: 'Bearer s3cret' };
    const other = await control('POST', '/programmes', { name: 'worker-1' }, auth);
    expect(other.status).toBe(201);
    expect((await control('POST', '/seed', customers(1), auth)).status).toBe(201);

    const { page, errors } = await open(`${url}/_sandbox/ui/`);
    // The clock's refusal of the wrong token is held until the right one is given: a late refusal
    // of a replaced token must not ask for a token again.
    const { release, late } = await hold(page, ['clock'], (request) => request.headers().authorization === 'Bearer wrong');
    const token = page.getByLabel('Token');
    await token.fill('wrong');
    await token.press('Enter');
    await page.getByText('That token was refused.').waitFor();
    await token.fill('s3cret');
    await token.press('Enter');
    release();
    const [lateRefusal] = await late;
    expect(lateRefusal!.status()).toBe(401);
    await page.locator('.health .badge', { hasText: /^connected$/ }).waitFor();
    expect(page.url()).not.toContain('s3cret');

    await page.keyboard.press('2');
    await page.locator('.tree li.customer', { hasText: 'user-0' }).waitFor();
    await page.getByLabel('Programme').selectOption(other.body.id);
    await page.getByText('The world is empty').waitFor();
    expect(page.url()).toContain(`programme=${other.body.id}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('switching programmes', () => {
  it("keeps the programme switched to: the previous one's late answers change nothing", async () => {
    const { url, control } = await sandbox();
    const other = await control('POST', '/programmes', { name: 'worker-2', clock: '2026-06-01T12:00:00Z' });
    expect(other.status).toBe(201);
    // Two customers here, one there: 14 events against 7.
    expect((await control('POST', '/seed', customers(2))).status).toBe(201);
    expect((await control('POST', '/seed', customers(1), { 'Sandbox-Programme': other.body.id })).status).toBe(201);

    const { page, errors } = await blank();
    // The first programme's clock and first page of events are held until the other one is shown.
    const { release, late } = await hold(page, ['clock', 'events?limit=1000'], (request) => request.headers()['sandbox-programme'] !== other.body.id);
    await page.goto(`${url}/_sandbox/ui/#/events`);
    await page.getByLabel('Programme').selectOption(other.body.id);
    await page.getByText('7 events · 0 failing').waitFor();
    await page.locator('.clock-chip', { hasText: '2026-06-01' }).waitFor();

    release();
    for (const response of await late) await response.finished();
    // An event the page hears of after those answers: the list it joins is the other programme's.
    expect((await control('POST', '/seed', customers(2, 5), { 'Sandbox-Programme': other.body.id })).status).toBe(201);
    await page.getByText('21 events · 0 failing').waitFor();
    expect(await page.locator('.clock-chip').textContent()).toContain('2026-06-01');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('Readiness', () => {
  it('shows the go-live report: each check with its verdict and finding, a failure with its hint, and the coverage', async () => {
    const { url, control } = home;
    const made = (await control('POST', '/programmes', { name: 'readiness' })).body as { id: string; apiKey: string; apiSecret: string };
    // A request refused for its shape: the request-shapes check fails.
    const { token } = (await (
      await fetch(`${url}/v1/auth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiKey: made.apiKey, apiSecret: made.apiSecret }),
      })
    ).json()) as { token: string };
    expect(
      (await fetch(`${url}/v1/customers`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{}' }))
        .status,
    ).toBe(400);
    const { page, errors } = await open(`${url}/_sandbox/ui/#/readiness?programme=${made.id}`);
    await page.waitForLoadState('load');
    const checks = page.locator('.readiness .check');
    await expect.poll(() => checks.count()).toBe(8);
    const shapes = checks.filter({ hasText: 'refused for its shape' });
    await expect.poll(() => shapes.locator('.badge').textContent()).toBe('fail');
    expect(await shapes.locator('.hint').textContent()).toContain('/openapi.json');
    expect(await shapes.locator('.finding').textContent()).toBe('1 request refused for its shape');
    expect(await page.locator('.readiness').textContent()).toMatch(/\d+ pass · \d+ fail · \d+ not judged · \d+ not exercised/);
    expect(await page.locator('.readiness').textContent()).toMatch(/operations called\s*\d+ of 4[0-9]/);
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toContain('Readiness');
    expect(errors).toEqual([]);
    await page.close();
  });
});
