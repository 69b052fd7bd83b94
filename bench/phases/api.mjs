/**
 * The API phases: cold start (beside Prism's), reads (GET /v1/customers and /v1/cards, unsigned
 * and strictly signed, side by side with the ceiling), writes (POST /v1/customers, beside Prism)
 * and full journeys, and the memory of the sandbox that served them. Each returns plain figures;
 * run.mjs lays out the table.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { verifyRate } from '../lib/p384.mjs';
import { ensurePrism, specFrom, startPrism } from '../lib/prism.mjs';
import { startReference } from '../lib/reference.mjs';
import { runJourneys } from '../lib/journey.mjs';
import { combine, CONNECTIONS, load, loadSeconds, median, warmUp } from '../lib/load.mjs';
import { call, seedWorld, startSandbox, token } from '../lib/sandbox.mjs';
import { freshSignedGets, headerPool, registerSigningKey } from '../lib/signing.mjs';

export const WORLD_SIZE = 25;
export const JOURNEY_CONCURRENCY = 16;
const COLD_STARTS = 5;
const READ_PATHS = ['/v1/customers', '/v1/cards'];
export const READ_ROUNDS = 3;

/** Spawn to exit of `node -e 0`: Node's own start on this machine, at this load. */
async function bareNodeMs(env) {
  const started = performance.now();
  await new Promise((resolve, reject) => spawn(process.execPath, ['-e', '0'], { stdio: 'ignore', env }).once('exit', resolve).once('error', reject));
  return performance.now() - started;
}

/** A new customer; `run` (hex) keeps its chainId and externalId apart from other runs' on the same sandbox. */
const newCustomer = (i, run) => ({
  chainId: `eip155:11155111:0x${run}${i.toString(16).padStart(40 - run.length, '0')}`,
  externalId: `post-${run}-${i}`,
});

/** The write load, for the sandbox and Prism alike: POST /v1/customers, a new customer and Idempotency-Key each. */
function customerWrites(run) {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/v1/customers',
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'Idempotency-Key': randomUUID() }, body: JSON.stringify(newCustomer(n++, run)) }),
    },
  ];
}

/** The request Prism's start is timed to. */
const prismProbe = {
  method: 'POST',
  path: '/v1/customers',
  headers: { Authorization: 'Bearer x', 'Content-Type': 'application/json' },
  body: JSON.stringify(newCustomer(1, '0')),
};

/**
 * Spawn to the first 200 from /_sandbox/health, `COLD_STARTS` times, each sandbox stopped before
 * the next; each run paired with a bare Node start for comparison, and with Prism's start on the
 * sandbox's own OpenAPI document (to its first answer). With NODE_EXTRA_CA_CERTS set, each run is
 * followed by one without it, so that both series meet the same load: Node reads that file, and its
 * own roots, on a thread of their own once node:tls loads, which the server's HTTP adapter loads.
 */
export async function coldStart(nodeArgs = []) {
  const prism = ensurePrism();
  const withCa = { runs: [], bare: [], prismRuns: [] };
  const withoutCa = process.env.NODE_EXTRA_CA_CERTS ? { runs: [], bare: [], dropEnv: ['NODE_EXTRA_CA_CERTS'] } : undefined;
  const once = async (series, withPrism, first) => {
    const dropEnv = series.dropEnv ?? [];
    series.bare.push(await bareNodeMs(Object.fromEntries(Object.entries(process.env).filter(([name]) => !dropEnv.includes(name)))));
    const sandbox = await startSandbox(['--verify', 'off'], { nodeArgs, dropEnv });
    series.runs.push(sandbox.startMs);
    const spec = withPrism && first ? await specFrom(sandbox.url) : undefined;
    await sandbox.stop();
    if (withPrism) {
      prism.spec ??= spec;
      const mock = await startPrism(prism.bin, prism.spec, prismProbe);
      series.prismRuns.push(mock.startMs);
      await mock.stop();
    }
  };
  for (let i = 0; i < COLD_STARTS; i++) {
    await once(withCa, !prism.error, i === 0);
    if (withoutCa) await once(withoutCa, false, false);
  }
  const figures = ({ runs, bare }) => ({ medianMs: median(runs), runsMs: runs, bareNodeMs: median(bare) });
  return {
    ...figures(withCa),
    ...(!prism.error && { prismMs: median(withCa.prismRuns), prismRunsMs: withCa.prismRuns }),
    prismError: prism.error,
    ...(withoutCa && { withoutExtraCaCerts: figures(withoutCa) }),
  };
}

/**
 * The sandbox the load phases share: verify off, the clock frozen (journeys advance it) and
 * tokens that outlive any number of advances; a world of WORLD_SIZE customers, accounts and cards.
 */
export async function mainSandbox(nodeArgs = []) {
  const sandbox = await startSandbox(['--verify', 'off', '--clock', 'now', '--token-ttl', '30d'], { nodeArgs });
  await seedWorld(sandbox.url, WORLD_SIZE);
  return { sandbox, token: await token(sandbox.url) };
}

/** The bytes the reference servers answer for `path`: the sandbox's own answer. */
async function responseOf(url, path, bearer) {
  const res = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${bearer}` } });
  const body = await res.text();
  const count = JSON.parse(body).length;
  if (res.status !== 200 || count < WORLD_SIZE) throw new Error(`GET ${path} answered ${res.status} with ${count} items`);
  return { body, contentType: res.headers.get('content-type'), count, bytes: Buffer.byteLength(body) };
}

/**
 * For each read path: the ceiling and bare Hono serving the same bytes, and the sandbox, loaded in
 * turn for READ_ROUNDS rounds of a third of the phase each, so that a change in the machine's load
 * falls on all three alike; each figure is the median of its rounds.
 */
export async function unsignedReads({ sandbox, token: bearer }) {
  const headers = { Authorization: `Bearer ${bearer}` };
  const seconds = loadSeconds() / READ_ROUNDS;
  const results = [];
  for (const path of READ_PATHS) {
    const response = await responseOf(sandbox.url, path, bearer);
    const ceiling = await startReference('node', response.body, response.contentType);
    const hono = await startReference('hono', response.body, response.contentType);
    try {
      const targets = [
        { name: 'ceiling', url: `${ceiling.url}${path}`, options: { pid: ceiling.pid } },
        { name: 'hono', url: `${hono.url}${path}`, options: { pid: hono.pid } },
        { name: 'unsigned', url: `${sandbox.url}${path}`, options: { headers, pid: sandbox.pid } },
      ];
      for (const t of targets) await warmUp(t.url, t.options);
      const rounds = Object.fromEntries(targets.map((t) => [t.name, []]));
      for (let round = 0; round < READ_ROUNDS; round++) {
        for (const t of targets) rounds[t.name].push(await load(t.url, { ...t.options, seconds }));
      }
      const [top, bare, ours] = targets.map((t) => combine(rounds[t.name]));
      results.push({ path, items: response.count, bytes: response.bytes, ceiling: top, hono: bare, unsigned: ours, ratio: ours.rps / top.rps });
    } finally {
      await ceiling.stop();
      await hono.stop();
    }
  }
  return results;
}

/**
 * The same reads against a `--verify strict` sandbox, beside what one core of this machine verifies
 * per second: every request with a signature of its own, made before the load and each sent once
 * (`fresh`), as real clients send them; and each connection replaying one header set (`replayed`),
 * which the sandbox's cache of verified signatures answers without verifying again.
 */
export async function strictReads(nodeArgs = []) {
  const sandbox = await startSandbox(['--verify', 'strict'], { nodeArgs });
  try {
    await seedWorld(sandbox.url, WORLD_SIZE);
    const bearer = await token(sandbox.url);
    const key = await registerSigningKey(sandbox.url, bearer);
    const verifyPerSecond = verifyRate();
    const results = [];
    for (const path of READ_PATHS) {
      const { pool, setupClient } = await headerPool(key, sandbox.url, path, bearer, CONNECTIONS);
      // One request outside the load: a refusal here says why, where the load would only count it.
      await call(sandbox.url, 'GET', path, { headers: pool[0] });
      await warmUp(`${sandbox.url}${path}`, { setupClient });
      const replayed = await load(`${sandbox.url}${path}`, { setupClient, pid: sandbox.pid });
      // Enough for the phase at twice the target rate; more than the 10,000 verified signatures the sandbox keeps per key.
      const count = Math.max(12_000, Math.ceil(2 * 1.5 * verifyPerSecond * loadSeconds()));
      const fresh = await freshSignedGets(key, sandbox.url, path, bearer, count);
      const warm = Math.min(2000, Math.floor(count / 6));
      await load(sandbox.url, { requests: fresh.requests, amount: warm });
      results.push({
        path,
        replayed,
        fresh: await load(sandbox.url, { requests: fresh.requests, amount: count - warm, seconds: undefined, pid: sandbox.pid }),
        signed: count,
        verifyPerSecond,
      });
    }
    return results;
  } finally {
    await sandbox.stop();
  }
}

/** POST /v1/customers, every request a new customer (its own chainId and externalId) and Idempotency-Key, as clients send them. */
export async function createCustomers({ sandbox, token: bearer }) {
  const requests = customerWrites(Date.now().toString(16));
  const headers = { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' };
  await warmUp(sandbox.url, { headers, requests });
  return load(sandbox.url, { headers, requests, pid: sandbox.pid });
}

/** The same requests against Prism (which stores nothing) on the OpenAPI document of the sandbox at `sandboxUrl`, or `{ error }` when Prism cannot run here. */
export async function prismWrites(sandboxUrl) {
  const prism = ensurePrism();
  if (prism.error) return { error: prism.error };
  const mock = await startPrism(prism.bin, await specFrom(sandboxUrl), prismProbe);
  try {
    const requests = customerWrites('0');
    const headers = { Authorization: 'Bearer x', 'Content-Type': 'application/json' };
    await warmUp(mock.url, { headers, requests });
    return await load(mock.url, { headers, requests, pid: mock.pid });
  } finally {
    await mock.stop();
  }
}

/** Journeys per second at JOURNEY_CONCURRENCY, for one load phase's duration. */
export async function journeys({ sandbox, token: bearer }) {
  await runJourneys(sandbox.url, bearer, { concurrency: JOURNEY_CONCURRENCY, seconds: Math.min(2, loadSeconds()) });
  return { concurrency: JOURNEY_CONCURRENCY, ...(await runJourneys(sandbox.url, bearer, { concurrency: JOURNEY_CONCURRENCY, seconds: loadSeconds() })) };
}
