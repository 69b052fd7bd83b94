// global-setup.mjs: one sandbox for the run; the workers find it through CARD_SANDBOX_URL.
import { createSandbox } from 'card-sandbox';

export default async function setup() {
  if (process.env.CARD_SANDBOX_URL) return;
  globalThis.cardSandbox = await createSandbox();
  process.env.CARD_SANDBOX_URL = globalThis.cardSandbox.url;
}
