/**
 * Restarts on a file database: pending deliveries resume where they stopped, delivered ones are
 * not sent again, and the verification key stays the same. An attempt cut off by a crash is sent
 * again with the same attempt number, as documented.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createClock } from '../kernel/clock.js';
import { createTestSandbox, T0, type TestSandbox } from '../testing/harness.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { publicKeyFrom, verifyWithLibrary } from '../testing/webhook-verifiers.js';
import { openStore } from '../store/store.js';

let dir: string;
let db: string;
let receiver: Receiver;
const open: TestSandbox[] = [];

const boot = (at = T0) => {
  const sandbox = createTestSandbox({ db }, { store: openStore(db), clock: createClock({ frozenAt: at }) });
  open.push(sandbox);
  return sandbox;
};
const emit = (sandbox: TestSandbox, id: string) => sandbox.deps.store.transaction(() => sandbox.deps.services.events.emit('card.updated', id, { id }));
const attemptsSeen = () => receiver.requests.map((r) => `${JSON.parse(r.body.toString()).id} ${r.headers['sandbox-delivery-attempt']}`);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhook-restart-'));
  db = join(dir, 'sandbox.db');
  receiver = await startTestReceiver();
});
afterEach(async () => {
  for (const sandbox of open.splice(0)) {
    sandbox.deps.services.scheduler.stop();
    await sandbox.deps.services.webhooks.drain(1000);
    if (sandbox.deps.store.sqlite.open) sandbox.deps.store.close();
  }
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

it('resumes pending deliveries after a restart, sends nothing twice, and keeps the verification key', async () => {
  const before = boot();
  before.deps.services.webhooks.put({ callbackUrl: `${receiver.url}/hook`, types: ['card.updated'] });
  receiver.answer((request) => (JSON.parse(request.body.toString()).id === 'card-1' ? 200 : 500));
  for (const id of ['card-1', 'card-2', 'card-3']) emit(before, id);
  await before.deps.services.scheduler.advance(T0);
  expect(attemptsSeen().sort()).toEqual(['card-1 1', 'card-2 1', 'card-2 2', 'card-3 1', 'card-3 2']);
  const key = before.deps.services.webhooks.verificationKey();
  expect(await before.deps.services.webhooks.drain(5000)).toBe(true);
  before.deps.store.close();

  // Back up 5 s later in real time (as `start` does): the retries due at T0 + 1 s go out at once.
  receiver.answer(200);
  const after = boot(T0 + 5000);
  expect(after.deps.services.webhooks.verificationKey()).toEqual(key);
  after.deps.services.scheduler.start();
  after.deps.services.scheduler.kick();
  await receiver.waitFor(7);
  await after.deps.services.webhooks.idle();
  expect(attemptsSeen().slice(5).sort()).toEqual(['card-2 3', 'card-3 3']);
  for (const request of receiver.requests.slice(5)) expect(await verifyWithLibrary(request, publicKeyFrom(key), key.keyId)).toBe(true);

  await after.deps.services.scheduler.advance(T0 + 48 * 3600 * 1000);
  expect(receiver.requests).toHaveLength(7);
});

it('sends an attempt cut off by a crash again, with the same attempt number', async () => {
  receiver.answer('hang');
  const crashed = boot();
  crashed.deps.services.webhooks.put({ callbackUrl: `${receiver.url}/hook`, types: ['card.updated'] });
  emit(crashed, 'card-1');
  crashed.deps.services.scheduler.start();
  crashed.deps.services.scheduler.kick();
  await receiver.waitFor(1);
  crashed.deps.services.scheduler.stop();
  crashed.deps.store.close(); // the process dies with the attempt in flight: nothing was recorded

  receiver.answer(200);
  const after = boot();
  await after.deps.services.scheduler.advance(T0);
  expect(attemptsSeen()).toEqual(['card-1 1', 'card-1 1']);
  expect(after.deps.store.sqlite.prepare('select status, attempts from deliveries').all()).toEqual([{ status: 'delivered', attempts: 1 }]);
});
