/**
 * A real browser for the inspector's tests (docs/inspector.md: The inspector): Debian's Chromium, or the one
 * CARD_SANDBOX_CHROMIUM names, driven by playwright-core, with the flags that keep it from reaching
 * the network on its own. Screenshots go to SCREENSHOTS_DIR when set (docs/screenshots refreshes
 * those docs/inspector.md shows), else to a folder of the test run. Not shipped.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM } from './chromium.js';

/** Without the networking flags Chromium keeps trying to reach Google's services from a closed network. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CARD_SANDBOX_CHROMIUM`);
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
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
