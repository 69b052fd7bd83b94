// global-teardown.mjs
export default async function teardown() {
  await globalThis.cardSandbox?.close();
}
