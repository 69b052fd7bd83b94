/**
 * The programmes phase: what a programme costs. POST /_sandbox/programmes one after another (the
 * time each takes, as the client sees it), the first request to each (its token: a programme's
 * services are built when it is first used), the sandbox's resident memory before and after, and its
 * CPU time while nothing happens — with every programme holding a customer, an account and an
 * issued card, whose expiry is a job three years away, then a hold too, whose expiry is a job seven
 * days away — against a sandbox with the default programme alone.
 */
import { median } from '../lib/load.mjs';
import { call, cpuMs, startSandbox } from '../lib/sandbox.mjs';

const PROGRAMMES = 300;
const IDLE_SECONDS = 5;

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];

/** CPU milliseconds the process used per second of doing nothing. */
async function idleCpu(pid) {
  const before = cpuMs(pid);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  return (cpuMs(pid) - before) / IDLE_SECONDS;
}

export async function programmeCosts(nodeArgs = []) {
  const sandbox = await startSandbox(['--verify', 'off'], { nodeArgs });
  try {
    const idleAlone = await idleCpu(sandbox.pid);
    // Warm up the code paths, then measure.
    for (let i = 0; i < 10; i++) await call(sandbox.url, 'POST', '/_sandbox/programmes', { body: {}, expect: 201 });
    const rssBefore = sandbox.memory().rssMiB;
    const times = [];
    const firstUse = [];
    const ids = [];
    for (let i = 0; i < PROGRAMMES; i++) {
      let started = performance.now();
      const { id, apiKey, apiSecret } = await call(sandbox.url, 'POST', '/_sandbox/programmes', {
        body: { name: `bench-${i}`, clock: '2026-03-01T09:00:00Z' },
        expect: 201,
      });
      times.push(performance.now() - started);
      started = performance.now();
      await call(sandbox.url, 'POST', '/v1/auth/token', { body: { apiKey, apiSecret }, expect: 200 });
      firstUse.push(performance.now() - started);
      ids.push(id);
    }
    const rssAfter = sandbox.memory().rssMiB;
    const cards = [];
    for (const id of ids) {
      const seeded = await call(sandbox.url, 'POST', `/_sandbox/seed?programme=${id}`, {
        body: { customers: [{ externalId: 'c', accounts: [{ currencies: ['EUR'], cards: [{}] }] }] },
        expect: 201,
      });
      cards.push(seeded.customers[0].accounts[0].cards[0].id);
    }
    const rssWorlds = sandbox.memory().rssMiB;
    const idleMany = await idleCpu(sandbox.pid);
    // Then a hold in each, left pending: its expiry is a job seven days away (docs/money-path.md: Holds that expire).
    for (const [i, id] of ids.entries()) {
      await call(sandbox.url, 'POST', `/_sandbox/simulator/cards/${cards[i]}/authorisation?programme=${id}`, {
        body: { amount: '12.50', currency: 'EUR', capture: false },
        expect: 201,
      });
    }
    const idleHolds = await idleCpu(sandbox.pid);
    return {
      count: PROGRAMMES,
      idleSeconds: IDLE_SECONDS,
      medianMs: median(times),
      p95Ms: quantile(times, 0.95),
      firstUseMs: median(firstUse),
      perProgrammeMiB: (rssAfter - rssBefore) / PROGRAMMES,
      perProgrammeWithWorldMiB: (rssWorlds - rssBefore) / PROGRAMMES,
      idleAloneMsPerS: idleAlone,
      idleManyMsPerS: idleMany,
      idleHoldsMsPerS: idleHolds,
    };
  } finally {
    await sandbox.stop();
  }
}
