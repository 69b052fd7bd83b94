// global-setup.ts: one sandbox for the whole run, started in-process, or the one
// CARD_SANDBOX_URL names (a container in CI).
import { createSandbox } from 'card-sandbox';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    cardSandboxUrl: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.CARD_SANDBOX_URL) return project.provide('cardSandboxUrl', process.env.CARD_SANDBOX_URL);
  const sandbox = await createSandbox();
  project.provide('cardSandboxUrl', sandbox.url);
  return () => sandbox.close();
}
