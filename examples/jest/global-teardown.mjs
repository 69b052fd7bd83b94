// global-teardown.mjs: the go-live report of every programme the test files made, as JUnit for CI.
import { writeFile } from 'node:fs/promises';
import { goLiveJunit } from 'card-sandbox';

export default async function teardown() {
  const sandbox = globalThis.cardSandbox;
  await writeFile('go-live.xml', goLiveJunit(await sandbox.report({ programmes: 'run' })));
  await sandbox.close();
}
