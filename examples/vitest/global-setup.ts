// global-setup.ts: one sandbox for the whole run, started in-process, or the one
// CARD_SANDBOX_URL names (a container in CI); when the run is over, the go-live report of
// every programme its test files made, as JUnit for CI.
import { writeFile } from 'node:fs/promises';
import { createSandbox, goLiveJunit } from 'card-sandbox';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    cardSandboxUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const sandbox = await createSandbox({ url: process.env.CARD_SANDBOX_URL });
  project.provide('cardSandboxUrl', sandbox.url);
  return async () => {
    await writeFile('go-live.xml', goLiveJunit(await sandbox.report({ programmes: 'run' })));
    await sandbox.close();
  };
}
