/**
 * The webhook phases: signed deliveries per second to a loopback receiver answering 200, how
 * long `POST /_sandbox/clock/advance {"by":"24h"}` takes with 1,000 failing deliveries pending
 * (receiver answering 500), with the attempts it ran, and how long `{"by":"30d"}` takes for a seeded
 * world whose deliveries go to a port nobody listens on, quiet and with both cores kept busy.
 * Events are made by POST /_sandbox/seed: one request writes a whole world, so the deliveries queue
 * up faster than the dispatcher drains them.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { signRate } from '../lib/p384.mjs';
import { startReceiver } from '../lib/receiver.mjs';
import { call, freePort, seedWorld, startSandbox, threadCpuMs, token, waitedMs } from '../lib/sandbox.mjs';

export const DELIVERY_CUSTOMERS = 300;
export const FAILING_DELIVERIES = 1000;
export const DEAD_PORT_CUSTOMERS = 86;
/** Dead-port advances run quiet and busy in turn, this many of each: one pair alone moves with whatever else the machine does. */
export const DEAD_PORT_PAIRS = 5;
const DELIVERY_TIMEOUT_MS = 120_000;
const ADVANCE_TIMEOUT_MS = 300_000;
const WEBHOOK_TYPES = ['customer.updated', 'account.updated', 'card.updated', 'authorisation.updated', 'transaction.updated'];

/** Every delivery of every event, paging through GET /_sandbox/events (newest first). */
async function deliveryStates(url) {
  const counts = { events: 0, pending: 0, delivered: 0, discarded: 0 };
  let before;
  for (;;) {
    const page = await call(url, 'GET', `/_sandbox/events?limit=1000${before ? `&before=${before}` : ''}`);
    for (const event of page) {
      counts.events++;
      for (const delivery of event.deliveries) counts[delivery.status]++;
    }
    if (page.length < 1000) return counts;
    before = page.at(-1).id;
  }
}

/** Events one seeded customer (active, with an active account and an issued card) makes. */
async function eventsPerCustomer(url) {
  await seedWorld(url, 1, { prefix: 'probe' });
  const { events } = await deliveryStates(url);
  await call(url, 'POST', '/_sandbox/reset');
  return events;
}

export async function deliveriesPerSecond(nodeArgs = []) {
  const sandbox = await startSandbox(['--verify', 'off'], { nodeArgs });
  const receiver = await startReceiver(200);
  try {
    receiver.verifyWith((await call(sandbox.url, 'GET', '/v1/webhooks/verification-key', { token: await token(sandbox.url) })).key);
    const expected = DELIVERY_CUSTOMERS * (await eventsPerCustomer(sandbox.url));
    const started = performance.now();
    await seedWorld(sandbox.url, DELIVERY_CUSTOMERS, { webhooks: [{ callbackUrl: receiver.url, types: [...WEBHOOK_TYPES] }] });
    const seededMs = performance.now() - started;
    // The sandbox's CPU time per delivery, from the seed's answer on (a few deliveries may precede it).
    const cpuBefore = threadCpuMs(sandbox.pid);
    const receivedBefore = receiver.stats.events.size;
    const complete = await receiver.until((s) => s.events.size >= expected, DELIVERY_TIMEOUT_MS);
    const cpuAfter = threadCpuMs(sandbox.pid);
    const { stats } = receiver;
    const counted = stats.events.size - receivedBefore;
    const cpuUs = (ms) => (counted > 0 ? (ms * 1000) / counted : undefined);
    const states = await deliveryStates(sandbox.url);
    const windowS = (stats.last - stats.first) / 1000;
    return {
      expected,
      received: stats.events.size,
      requests: stats.requests,
      complete,
      seededMs,
      perSecond: stats.events.size / windowS,
      endToEndPerSecond: stats.events.size / ((stats.last - started) / 1000),
      states,
      signaturesChecked: stats.checked,
      signatureProblems: stats.problems,
      reusedSignatures: stats.reused,
      signaturesPerSecond: signRate(),
      cpuUs: cpuUs(cpuAfter.total - cpuBefore.total),
      mainCpuUs: cpuUs(cpuAfter.main - cpuBefore.main),
    };
  } finally {
    await receiver.close();
    await sandbox.stop();
  }
}

export async function advanceWithFailures(nodeArgs = []) {
  const sandbox = await startSandbox(['--verify', 'off', '--clock', 'now'], { nodeArgs });
  const receiver = await startReceiver(500);
  try {
    // One event per customer left in `initiating`: exactly FAILING_DELIVERIES deliveries.
    const customers = Array.from({ length: FAILING_DELIVERIES }, (_, i) => ({ externalId: `failing-${i}`, status: 'initiating' }));
    await call(sandbox.url, 'POST', '/_sandbox/seed', {
      body: { webhooks: [{ callbackUrl: receiver.url, types: [...WEBHOOK_TYPES] }], customers },
      expect: 201,
    });
    // In real time the first attempt and the immediate retry run; the next waits 1 s of the frozen clock.
    await receiver.until((s) => s.requests >= 2 * FAILING_DELIVERIES, DELIVERY_TIMEOUT_MS);
    await new Promise((r) => setTimeout(r, 300));
    const before = await deliveryStates(sandbox.url);
    const requestsBefore = receiver.stats.requests;
    const cpuBefore = threadCpuMs(sandbox.pid);
    const started = performance.now();
    const result = await call(sandbox.url, 'POST', '/_sandbox/clock/advance', { body: { by: '24h' }, timeoutMs: ADVANCE_TIMEOUT_MS }).catch((error) => ({
      error: error.message,
    }));
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = threadCpuMs(sandbox.pid);
    const after = await deliveryStates(sandbox.url);
    return {
      pendingBefore: before.pending,
      seconds: result.error ? undefined : seconds,
      cpuSeconds: (cpuAfter.total - cpuBefore.total) / 1000,
      mainCpuSeconds: (cpuAfter.main - cpuBefore.main) / 1000,
      error: result.error,
      ran: result.ran,
      attempts: receiver.stats.requests - requestsBefore,
      after,
    };
  } finally {
    await receiver.close();
    await sandbox.stop();
  }
}

/**
 * `clock advance 30d` for DEAD_PORT_CUSTOMERS seeded customers (each with an account and a card)
 * whose deliveries go to a loopback port nobody listens on: every attempt of a month of retries is
 * a refused connection. With `busy`, that many shell loops (`while :; do :; done`) keep the cores
 * busy during the advance, and are killed after it.
 */
export async function advanceToDeadPort(nodeArgs = [], { busy = 0 } = {}) {
  const sandbox = await startSandbox(['--verify', 'off', '--clock', 'now'], { nodeArgs });
  const loops = [];
  try {
    const callbackUrl = `http://127.0.0.1:${await freePort()}/hooks`;
    await seedWorld(sandbox.url, DEAD_PORT_CUSTOMERS, { webhooks: [{ callbackUrl, types: [...WEBHOOK_TYPES] }] });
    // In real time the first attempts and the immediate retries are refused; the next waits 1 s of the frozen clock.
    await new Promise((r) => setTimeout(r, 1000));
    const before = await deliveryStates(sandbox.url);
    for (let i = 0; i < busy; i++) loops.push(spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
    const cpuBefore = threadCpuMs(sandbox.pid);
    const waitedBefore = waitedMs(sandbox.pid);
    const started = performance.now();
    const result = await call(sandbox.url, 'POST', '/_sandbox/clock/advance', { body: { by: '30d' }, timeoutMs: ADVANCE_TIMEOUT_MS }).catch((error) => ({
      error: error.message,
    }));
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = threadCpuMs(sandbox.pid);
    const waitedAfter = waitedMs(sandbox.pid);
    for (const loop of loops) loop.kill('SIGKILL');
    const after = await deliveryStates(sandbox.url);
    return {
      busy,
      pendingBefore: before.pending,
      seconds: result.error ? undefined : seconds,
      cpuSeconds: (cpuAfter.total - cpuBefore.total) / 1000,
      mainCpuSeconds: (cpuAfter.main - cpuBefore.main) / 1000,
      // The main thread runnable but not running: the time a busy machine adds, beside any extra work.
      mainWaitSeconds: waitedBefore === undefined ? undefined : (waitedAfter - waitedBefore) / 1000,
      error: result.error,
      ran: result.ran,
      after,
    };
  } finally {
    for (const loop of loops) loop.kill('SIGKILL');
    await sandbox.stop();
  }
}

/** The dead-port advance quiet, then with every core kept busy, in turn, DEAD_PORT_PAIRS times: each pair's runs. */
export async function deadPortAdvances(nodeArgs = []) {
  const pairs = [];
  for (let i = 0; i < DEAD_PORT_PAIRS; i++) {
    pairs.push({ quiet: await advanceToDeadPort(nodeArgs), busy: await advanceToDeadPort(nodeArgs, { busy: availableParallelism() }) });
  }
  return pairs;
}
