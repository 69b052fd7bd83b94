/**
 * A real browser for the inspector's tests (docs/inspector.md: The inspector): Debian's Chromium, or the one
 * CARD_SANDBOX_CHROMIUM names, driven by playwright-core, with the flags that keep it from reaching
 * the network on its own. Screenshots go to SCREENSHOTS_DIR when set (docs/screenshots refreshes
 * those docs/inspector.md shows), else to a folder of the test run. Not shipped.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { chromiumOptions } from './chromium.js';
import { HUNG_MS } from './wait.js';

let shared: Promise<Browser> | undefined;

/**
 * A page in a context of its own, in the Chromium the test files share: connected once in each
 * worker (a worker runs file after file), the run's when vitest.config.ts started one, else one of
 * the worker's own, which ends with the worker. A wait on the page is called hung after HUNG_MS
 * (playwright's own 30 s is reached on a busy machine). The file closes it.
 */
export async function newPage(options: BrowserContextOptions): Promise<Page> {
  const page = await (shared ??= connect()).then((browser) => browser.newPage(options));
  page.setDefaultTimeout(HUNG_MS);
  return page;
}

async function connect(): Promise<Browser> {
  const server = inject('browserServer');
  if (server === undefined) return chromium.launch(chromiumOptions());
  const res = await fetch(server);
  if (!res.ok) throw new Error(await res.text());
  return chromium.connect(await res.text());
}

let dir: string | undefined;

/** Where this run's screenshots go. */
function screenshotsDir(): string {
  if (!dir) {
    const wanted = process.env.SCREENSHOTS_DIR;
    dir = wanted ? resolve(wanted) : mkdtempSync(join(tmpdir(), 'card-sandbox-screenshots-'));
    mkdirSync(dir, { recursive: true });
  }
  return dir;
}

/** A screenshot of the page as it is, named `<name>.png`; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(screenshotsDir(), `${name}.png`);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  return path;
}

/** Records every request the page makes, so that a test can check it never left the sandbox. */
export function requestsOf(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** Errors the page's script threw: a test fails on any. */
export function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
