/**
 * One Chromium for the whole test run (vitest.config.ts `globalSetup`), for the inspector's test
 * files, which may run at once in different workers: started when a file first asks for it, at the
 * loopback address this setup provides to every file (`inject('browserServer')`, answered with the
 * browser's WebSocket endpoint), and closed when the run ends. A run without browser tests starts
 * none. Each file works in a context of its own (src/testing/browser.ts). Not shipped.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumOptions } from './chromium.js';

declare module 'vitest' {
  interface ProvidedContext {
    /** Answers a GET with the WebSocket endpoint of the run's Chromium, started on the first. */
    browserServer: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let started: Promise<BrowserServer> | undefined;
  const server = createServer((_, res) => {
    // Imported here, so that a run without browser tests never loads playwright-core.
    started ??= import('playwright-core').then(({ chromium }) => chromium.launchServer(chromiumOptions()));
    started.then(
      (browser) => res.end(browser.wsEndpoint()),
      (error: Error) => res.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('browserServer', `http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return async () => {
    server.close();
    await (await started?.catch(() => undefined))?.close();
  };
}
