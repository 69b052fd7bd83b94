/**
 * `npm run bench` (after `npm run build`): every phase against the compiled CLI in child
 * processes on loopback, back to back in one run, then the table — printed and written to
 * BENCHMARKS.md with the machine, Node version, date and load average. BENCHMARKS.md is the one
 * place the figures are kept; its section from KEPT on is written by hand and kept as it is.
 *
 *   BENCH_SECONDS=10   seconds per load phase (shorter runs are noisier)
 *   BENCH_ONLY=a,b     run only these phases (cold, companion, reads, strict, writes, journeys, deliveries,
 *                      advance, programmes, snapshots, parity); BENCHMARKS.md is only written by a full run
 *   BENCH_PROFILE=dir  start every sandbox with `node --cpu-prof --cpu-prof-dir dir`
 *   BENCH_BIN=path     run another build's bin/card-sandbox.cjs instead (an A/B comparison)
 *   BENCH_BASELINE=dir the companion phase alternates with the build in that checkout (docs/benchmarks.md)
 *   BENCH_ADVANCE=dead-port  the advance phase runs only the 30 d advances to a dead port, quiet and
 *                      busy (and BENCHMARKS.md is not written)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { coldStart, createCustomers, journeys, mainSandbox, prismWrites, READ_ROUNDS, strictReads, unsignedReads, WORLD_SIZE } from './phases/api.mjs';
import { deliveriesPerSecond } from './phases/webhooks.mjs';
import { PRISM_VERSION } from './lib/prism.mjs';
import { companionBaseline } from './phases/companion.mjs';
import { advanceRows, companionRows, parityRows, programmeRows, snapshotRows } from './sections.mjs';
import { CONNECTIONS, loadSeconds } from './lib/load.mjs';
import { fixed, loadAverage, machine, markdownTable, ms, row, textTable } from './lib/report.mjs';

const PHASES = ['cold', 'companion', 'reads', 'strict', 'writes', 'journeys', 'deliveries', 'advance', 'programmes', 'snapshots', 'parity'];
// Ratios are to a reference measured in the same run: Prism, the node:http ceiling, one core's P-384 rate, a baseline build.
const TARGETS = {
  coldMs: 300,
  coldOfPrism: 1 / 5,
  ceilingRatio: 0.5,
  strictOfVerify: 1.5,
  writesOfPrism: 3,
  deliveriesOfSign: 1.5,
  advanceSeconds: 2,
  busyOfQuiet: 1.5,
  rssMiB: 150,
  programmeMs: 5,
  programmeMiB: 2,
  snapshotMs: 50,
  forkMs: 100,
  paritySeconds: 30,
  companionOfBaseline: 1,
};
const OUTPUT = fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url));
// The hand-written reading of the figures, from this heading to the end: a full run keeps it.
const KEPT = '\n## Reading the figures\n';

if (!existsSync(fileURLToPath(new URL('../dist/card-sandbox.cjs', import.meta.url)))) {
  console.error('dist/card-sandbox.cjs is missing: run `npm run build` first (`npm run bench` does)');
  process.exit(1);
}

const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((s) => s.trim()) : PHASES;
const unknown = only.filter((p) => !PHASES.includes(p));
if (unknown.length) {
  console.error(`unknown phase(s) in BENCH_ONLY: ${unknown.join(', ')}; phases are ${PHASES.join(', ')}`);
  process.exit(1);
}
const deadPortOnly = process.env.BENCH_ADVANCE !== undefined;
if (deadPortOnly && process.env.BENCH_ADVANCE !== 'dead-port') {
  console.error(`BENCH_ADVANCE=${process.env.BENCH_ADVANCE}: the one value it takes is dead-port`);
  process.exit(1);
}
const wants = (phase) => only.includes(phase);
const nodeArgs = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
const seconds = loadSeconds();
const baseline = wants('companion') ? companionBaseline() : undefined;

const rows = [];
const notes = [];
const loads = [];
const phase = async (name, fn) => {
  loads.push(`${name} ${loadAverage()}`);
  process.stderr.write(`bench: ${name} (load ${loadAverage()})…\n`);
  return fn();
};
const cores = availableParallelism();
/** What the sandbox's CPU per item allows on every core of this machine, as a multiple of one core's P-384 rate. */
const cpuBound = (cpuUs, oneCore, item, sharer) =>
  cpuUs === undefined
    ? ''
    : `At ${fixed(cpuUs)} µs of sandbox CPU per ${item}, all ${cores} cores given to the sandbox alone allow ${fixed((cores * 1e6) / cpuUs)} /s, ` +
      `${fixed((cores * 1e6) / cpuUs / oneCore, 2)}× one core's rate; ${sharer} runs on the same cores.`;

const started = new Date();
const loadAtStart = loadAverage();

if (wants('cold')) {
  const cold = await phase('cold start', () => coldStart(nodeArgs));
  rows.push(
    row(
      'Cold start, spawn → 200 /_sandbox/health (median of 5)',
      {},
      `${ms(cold.medianMs)} (node -e 0: ${ms(cold.bareNodeMs)})`,
      `≤ ${TARGETS.coldMs} ms`,
      cold.medianMs <= TARGETS.coldMs,
    ),
  );
  if (cold.prismMs !== undefined) {
    const ratio = cold.medianMs / cold.prismMs;
    rows.push(
      row(
        `Reference: Prism ${PRISM_VERSION} cold start, spawn → first answer (median of 5)`,
        {},
        `${ms(cold.prismMs)}; the sandbox takes ${fixed(ratio * 100)} % of it`,
        `sandbox ≤ ${fixed(TARGETS.coldOfPrism * 100)} %`,
        ratio <= TARGETS.coldOfPrism,
      ),
    );
    notes.push(
      `Prism ${PRISM_VERSION} (\`prism mock\` on the sandbox's own /openapi.json) cold start runs: ${cold.prismRunsMs.map(ms).join(', ')}, each to its first answer to POST /v1/customers.`,
    );
  } else notes.push(`Prism: ${cold.prismError}.`);
  notes.push(
    `Cold start runs: ${cold.runsMs.map(ms).join(', ')}; Node alone (spawn to exit of \`node -e 0\`), median of 5 taken between them: ${ms(cold.bareNodeMs)}.`,
  );
  const withoutCa = cold.withoutExtraCaCerts;
  if (withoutCa) {
    rows.push(row('Cold start, the same without NODE_EXTRA_CA_CERTS', {}, `${ms(withoutCa.medianMs)} (node -e 0: ${ms(withoutCa.bareNodeMs)})`));
    notes.push(
      `NODE_EXTRA_CA_CERTS is set here (a CA file Node reads, with its own roots, on a thread of their own once node:tls loads, as a start does). Without it, each run after one with it: cold start runs ${withoutCa.runsMs.map(ms).join(', ')}, Node alone ${ms(withoutCa.bareNodeMs)}.`,
    );
  }
}
if (wants('companion')) await companionRows({ phase, nodeArgs, rows, notes, targets: TARGETS, baseline });

let reads = [];
let strict = [];
let writes;
let prism;
let journeyRun;
let memory;
if (wants('reads') || wants('strict') || wants('writes') || wants('journeys')) {
  const main = await mainSandbox(nodeArgs);
  try {
    if (wants('reads')) reads = await phase('reads', () => unsignedReads(main));
    if (wants('strict')) strict = await phase('strict reads', () => strictReads(nodeArgs));
    if (wants('writes')) {
      writes = await phase('writes', () => createCustomers(main));
      prism = await phase('writes, Prism', () => prismWrites(main.sandbox.url));
    }
    if (wants('journeys')) journeyRun = await phase('journeys', () => journeys(main));
    if (wants('reads') && wants('writes') && wants('journeys')) memory = main.sandbox.memory();
  } finally {
    await main.sandbox.stop();
  }
}
for (const path of new Set([...reads, ...strict].map((r) => r.path))) {
  const r = reads.find((x) => x.path === path);
  const s = strict.find((x) => x.path === path);
  if (r) {
    rows.push(row(`Ceiling: node:http in its own process, same bytes as GET ${path}`, r.ceiling, `${r.items} items, ${fixed(r.bytes)} B`));
    rows.push(row(`Reference: bare Hono route, same bytes`, r.hono, `${fixed((r.hono.rps / r.ceiling.rps) * 100)} % of ceiling`));
    rows.push(
      row(
        `GET ${path}, --verify off`,
        r.unsigned,
        `${fixed(r.ratio * 100)} % of ceiling`,
        `≥ ${TARGETS.ceilingRatio * 100} %`,
        r.ratio >= TARGETS.ceilingRatio,
      ),
    );
  }
  if (s) {
    const ofVerify = s.fresh.rps / s.verifyPerSecond;
    rows.push(
      row(
        `GET ${path}, --verify strict, a fresh signature each`,
        s.fresh,
        `${fixed(ofVerify, 2)}× one core's ${fixed(s.verifyPerSecond)} verifies/s`,
        `≥ ${TARGETS.strictOfVerify}×`,
        ofVerify >= TARGETS.strictOfVerify && !s.fresh.bad,
      ),
    );
    rows.push(row(`GET ${path}, --verify strict, one signature per connection replayed`, s.replayed, 'cached verifications, not what clients send'));
    notes.push(
      `Strict GET ${path}: ${fixed(s.signed)} requests, each signed once before the load (http-message-signatures, on every core) and sent once; ${fixed(s.verifyPerSecond)} P-384 verifies/s on one core with node:crypto, measured in the same run. ` +
        cpuBound(s.fresh.cpuUs, s.verifyPerSecond, 'request', 'the load generator'),
    );
  }
  for (const [what, result] of [
    ['ceiling', r?.ceiling],
    ['bare Hono', r?.hono],
    ['unsigned', r?.unsigned],
    ['strict, fresh', s?.fresh],
    ['strict, replayed', s?.replayed],
  ]) {
    if (result?.bad) notes.push(`GET ${path} (${what}): ${result.detail}.`);
  }
}
if (writes) {
  const ofPrism = prism?.rps ? writes.rps / prism.rps : undefined;
  if (prism?.rps) rows.push(row(`Reference: Prism ${PRISM_VERSION}, POST /v1/customers (stores nothing)`, prism, ''));
  rows.push(
    row(
      'POST /v1/customers, a new customer and Idempotency-Key each, --verify off',
      writes,
      `${fixed(writes.total)} created${ofPrism ? `; ${fixed(ofPrism, 2)}× Prism` : ''}`,
      `≥ ${TARGETS.writesOfPrism}× Prism`,
      ofPrism === undefined ? undefined : ofPrism >= TARGETS.writesOfPrism && !writes.bad,
    ),
  );
  if (writes.bad) notes.push(`POST /v1/customers: ${writes.detail}.`);
  if (prism?.error) notes.push(`Prism: ${prism.error}.`);
  else if (prism?.bad) notes.push(`Prism, POST /v1/customers: ${prism.detail}.`);
}
if (journeyRun) {
  const j = journeyRun;
  rows.push(row(`Full journeys, ${j.concurrency} concurrent, --verify off`, {}, `${fixed(j.perSecond, 1)} journeys/s (${j.journeys})`));
  notes.push(
    `Journeys: ${j.journeys} completed with ${j.advances} clock advances of 2 s${j.failures.length ? `; failures: ${j.failures.slice(0, 3).join(' | ')}` : ''}.`,
  );
}
if (memory) {
  rows.push(
    row(
      'RSS of the sandbox after the load phases above',
      {},
      `${fixed(memory.rssMiB)} MiB (peak ${fixed(memory.peakMiB)})`,
      `≤ ${TARGETS.rssMiB} MiB`,
      memory.rssMiB <= TARGETS.rssMiB,
    ),
  );
}

if (wants('deliveries')) {
  const d = await phase('webhook deliveries', () => deliveriesPerSecond(nodeArgs));
  const ofSign = d.perSecond / d.signaturesPerSecond;
  rows.push(
    row(
      'Signed webhook deliveries to a loopback receiver (200)',
      { cpuUs: d.cpuUs },
      `${fixed(d.perSecond)} /s (${fixed(d.received)} of ${fixed(d.expected)}); ${fixed(ofSign, 2)}× one core's ${fixed(d.signaturesPerSecond)} signatures/s`,
      `≥ ${TARGETS.deliveriesOfSign}×`,
      d.complete && ofSign >= TARGETS.deliveriesOfSign,
    ),
  );
  notes.push(
    `Webhook deliveries: ${fixed(d.expected)} events written by one seed request in ${ms(d.seededMs)}; ` +
      `${fixed(d.perSecond)} deliveries/s from the first to the last received, ${fixed(d.endToEndPerSecond)} /s counting from the seed request; ` +
      `${d.requests} requests received; sandbox CPU per delivery ${fixed(d.cpuUs)} µs, ${fixed(d.mainCpuUs)} µs of it on the main thread (the rest on libuv's pool signing, and V8's helpers); states afterwards ${JSON.stringify(d.states)}; ` +
      `${d.signaturesChecked} signatures checked with node:crypto, ${d.signatureProblems.length} bad${d.signatureProblems.length ? ` (${d.signatureProblems[0]})` : ''}; ` +
      `${d.reusedSignatures} requests carried a signature an earlier one had. ` +
      `Each delivery needs its own P-384 signature; this machine makes ${fixed(d.signaturesPerSecond)} per second on one core (node:crypto), measured in the same run. ` +
      cpuBound(d.cpuUs, d.signaturesPerSecond, 'delivery', 'the receiver'),
  );
}

const later = { phase, nodeArgs, rows, notes, targets: TARGETS, deadPortOnly };
if (wants('advance')) await advanceRows(later);

if (wants('programmes')) await programmeRows(later);
if (wants('snapshots')) await snapshotRows(later);
if (wants('parity')) await parityRows(later);

const m = machine();
const loadAtEnd = loadAverage();
const header = [
  `Machine: ${m.cpu}, ${m.cores} cores, ${fixed(m.memoryGiB, 1)} GiB, ${m.platform}; Node ${m.node}`,
  `Date: ${started.toISOString()}; load average (1/5/15 min) at start ${loadAtStart}, at end ${loadAtEnd}`,
  `Load phases: ${seconds} s each after a warm-up, ${CONNECTIONS} connections (autocannon, loopback); world: ${WORLD_SIZE} customers, accounts and cards`,
];

console.log(`\n${header.join('\n')}\n\n${textTable(rows)}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`);

if (only.length === PHASES.length && !deadPortOnly) {
  const markdown = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.mjs). Every figure comes from one run, phases back to back, against the compiled CLI',
    '(`node bin/card-sandbox.cjs start --db :memory:`) in its own process on loopback; the load generator (autocannon) runs in the',
    'bench process, and each reference in a process of its own: node:http and a bare Hono route answering the same bytes (the',
    "ceiling), Prism (`prism mock` on the sandbox's own OpenAPI document), and node:crypto on one core for P-384. Every target is",
    'a ratio to a reference measured in the same run: the machine is shared, so compare within a run rather than across runs.',
    '',
    ...header.map((h) => `- ${h}`),
    '',
    markdownTable(rows),
    '',
    "**req/s**: mean of autocannon's per-second samples; **p50/p99**: latency in ms; **CPU µs/req**: CPU time (user + system) the",
    "server process used per request while loaded, which moves less with the machine's load than req/s. The ceiling, bare Hono and",
    `unsigned GET rows were loaded in turn, ${READ_ROUNDS} rounds of a third of the phase each, and show the median round.`,
    '',
    '## Notes',
    '',
    ...notes.map((n) => `- ${n}`),
    `- Load average at the start of each phase: ${loads.join('; ')}.`,
    ...(rows.some((r) => r.met === false)
      ? ['- Why the targets marked NO are missed on a machine like this one: [Reading the figures](#reading-the-figures), below.']
      : []),
    '',
  ].join('\n');
  const previous = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '';
  const kept = previous.includes(KEPT) ? previous.slice(previous.indexOf(KEPT)) : '';
  writeFileSync(OUTPUT, markdown + kept);
  console.log(`Written to ${OUTPUT}`);
}
