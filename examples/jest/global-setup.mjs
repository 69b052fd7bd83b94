// global-setup.mjs: one sandbox for the run (or the one CARD_SANDBOX_URL names); the workers
// find it through CARD_SANDBOX_URL.
import { createSandbox } from 'card-sandbox';

export default async function setup() {
  globalThis.cardSandbox = await createSandbox({ url: process.env.CARD_SANDBOX_URL });
  process.env.CARD_SANDBOX_URL = globalThis.cardSandbox.url;
}
