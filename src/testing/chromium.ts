/**
 * Where the inspector's browser tests find Chromium (docs/architecture.md: Development): Debian's, or the one
 * CARD_SANDBOX_CHROMIUM names. Without one they are left out of `npm test`, with one line saying
 * so, except in CI (CI set), where they run and fail: CI must never pass without them. Not shipped.
 */
import { existsSync } from 'node:fs';

const chromiumPath = (env: Record<string, string | undefined>) => env.CARD_SANDBOX_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM = chromiumPath(process.env);

export const BROWSER_TESTS = 'src/suites/inspector*.e2e.test.ts';

/** Without the networking flags Chromium keeps trying to reach Google's services from a closed network. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** How playwright-core launches it (src/testing/browser.ts, browser-server.ts). */
export function chromiumOptions(): { executablePath: string; args: string[] } {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CARD_SANDBOX_CHROMIUM`);
  return { executablePath: CHROMIUM, args: FLAGS };
}

/** The line `npm test` prints when it leaves the browser tests out; undefined when they run. */
export function browserTestsLeftOut(env: Record<string, string | undefined> = process.env, exists: (path: string) => boolean = existsSync): string | undefined {
  const chromium = chromiumPath(env);
  if (exists(chromium) || env.CI) return undefined;
  return `the inspector's browser tests (${BROWSER_TESTS}) are left out: no Chromium at ${chromium}. To run them: apt-get install -y chromium, or set CARD_SANDBOX_CHROMIUM to a Chromium binary.`;
}
