/**
 * The rows and notes of the companion's phase and of those after the deliveries (bench/run.mjs runs
 * them): each runs its phase through `phase`, then adds its rows, with their targets, and its notes
 * to the run's.
 */
import { COMPANION_RUNS, companionStarts } from './phases/companion.mjs';
import { PARITY_RUNS, parityRuns } from './phases/parity.mjs';
import { programmeCosts } from './phases/programmes.mjs';
import { PENDING_RETRIES, retriesAfterRestore, SNAPSHOT_CUSTOMERS, snapshotCosts } from './phases/snapshots.mjs';
import { advanceWithFailures, DEAD_PORT_CUSTOMERS, DEAD_PORT_PAIRS, deadPortAdvances, FAILING_DELIVERIES } from './phases/webhooks.mjs';
import { median } from './lib/load.mjs';
import { fixed, ms, row } from './lib/report.mjs';

/**
 * The test companion's start, `import('card-sandbox')` + `createSandbox()`, against the baseline
 * build when one is given: the process's CPU time decides, the median of the pairs' ratios (wall
 * time moves with the machine's load more than with the build).
 */
export async function companionRows({ phase, nodeArgs, rows, notes, targets: TARGETS, baseline }) {
  const c = await phase('companion', () => companionStarts(nodeArgs, baseline));
  const what = `import('card-sandbox') + createSandbox(), a new process each (median of ${COMPANION_RUNS})`;
  const target = `≤ ${fixed(TARGETS.companionOfBaseline, 2)}× the baseline's CPU`;
  if (c.error) {
    rows.push(row(what, {}, `failed: ${c.error}`, target, baseline ? false : undefined));
    return;
  }
  const figures = (f) =>
    `CPU ${ms(f.cpuMs)} (import ${ms(f.importCpuMs)}, createSandbox() ${ms(f.createCpuMs)}); wall ${ms(f.wallMs)} (${ms(f.importWallMs)}, ${ms(f.createWallMs)})`;
  // The ratio as the row shows it, two decimals, is the one compared with the target.
  const ofBaseline = c.baseline && Number(c.ofBaseline.toFixed(2));
  if (c.baseline) rows.push(row(`Reference: the baseline build, ${c.baseline.name}, the same, run in turn with it`, {}, figures(c.baseline)));
  rows.push(
    row(
      what,
      {},
      `${figures(c.current)}; ${c.baseline ? `${fixed(ofBaseline, 2)}× the baseline's CPU (the pairs' median)` : 'no baseline given (BENCH_BASELINE)'}`,
      target,
      c.baseline ? ofBaseline <= TARGETS.companionOfBaseline : undefined,
    ),
  );
  const runs = (f) => `${f.runsCpuMs.map((cpu) => fixed(cpu)).join(', ')} ms`;
  notes.push(
    `Companion: each run a new \`node --input-type=module --eval\` in the build's root importing the package's own entry, then \`createSandbox()\` (in process, in memory, --verify strict) until it resolves, and \`close()\`; ` +
      `CPU is the process's (every thread), from \`process.cpuUsage()\`; one uncounted run of each build first. ` +
      `${c.baseline ? `Runs in turn, CPU: the baseline (${c.baseline.name}) ${runs(c.baseline)}; this build ${runs(c.current)}` : `Runs, CPU: ${runs(c.current)}`}; load average ${c.load}.`,
  );
}

/**
 * Time travel with failing deliveries: the 24 h advance to a receiver answering 500 (unless
 * `deadPortOnly`), and the 30 d advance to a dead port, quiet and busy in turn.
 */
export async function advanceRows({ phase, nodeArgs, rows, notes, targets: TARGETS, deadPortOnly = false }) {
  if (!deadPortOnly) {
    const a = await phase('24 h advance', () => advanceWithFailures(nodeArgs));
    const result =
      a.seconds === undefined ? `failed: ${a.error}` : `${fixed(a.seconds, 2)} s, ${fixed(a.attempts)} attempts, ${fixed(a.cpuSeconds, 2)} s of sandbox CPU`;
    rows.push(
      row(
        `clock advance 24h, ${fixed(FAILING_DELIVERIES)} failing deliveries pending`,
        {},
        result,
        `≤ ${TARGETS.advanceSeconds} s`,
        a.seconds !== undefined && a.seconds <= TARGETS.advanceSeconds,
      ),
    );
    notes.push(
      `24 h advance: ${a.pendingBefore} deliveries pending before; the advance answered ran=${a.ran}; the receiver counted ${a.attempts} attempts during it; states afterwards ${JSON.stringify(a.after)}; ` +
        `sandbox CPU ${fixed(a.cpuSeconds, 2)} s, ${fixed(a.mainCpuSeconds, 2)} s of it on the main thread (the rest on libuv's pool signing, and V8's helpers).`,
    );
  }

  const pairs = await phase('30 d advance to a dead port', () => deadPortAdvances(nodeArgs));
  const quiet = pairs.map((p) => p.quiet);
  const busy = pairs.map((p) => p.busy);
  // The first of the runs that failed, if any; a figure's median over the runs.
  const failed = (runs) => runs.find((r) => r.seconds === undefined);
  const of = (runs, figure) => median(runs.map((r) => r[figure]));
  const outcome = (runs) =>
    failed(runs)
      ? `failed: ${failed(runs).error}`
      : `${fixed(of(runs, 'seconds'), 2)} s, ${fixed(of(runs, 'ran'))} attempts, ${fixed(of(runs, 'cpuSeconds'), 2)} s of sandbox CPU (medians of ${runs.length})`;
  rows.push(
    row(
      `clock advance 30d, ${DEAD_PORT_CUSTOMERS} customers' deliveries failing to a dead port`,
      {},
      outcome(quiet),
      `≤ ${TARGETS.advanceSeconds} s`,
      !failed(quiet) && of(quiet, 'seconds') <= TARGETS.advanceSeconds,
    ),
  );
  // Each busy run against the quiet one just before it: the median of the pairs' ratios.
  const ofQuiet = failed(quiet) || failed(busy) ? undefined : median(pairs.map((p) => p.busy.seconds / p.quiet.seconds));
  rows.push(
    row(
      `… the same with both cores kept busy (${busy[0].busy} shell loops)`,
      {},
      `${outcome(busy)}${ofQuiet ? `; ${fixed(ofQuiet, 2)}× quiet` : ''}`,
      `≤ ${TARGETS.busyOfQuiet}× quiet`,
      ofQuiet !== undefined && ofQuiet <= TARGETS.busyOfQuiet,
    ),
  );
  const seconds = (runs) => runs.map((r) => (r.seconds === undefined ? 'failed' : `${fixed(r.seconds, 2)} s`)).join(', ');
  const threads = (runs) =>
    `main thread ${ms(of(runs, 'mainCpuSeconds') * 1000)} of CPU` +
    (runs.every((r) => r.mainWaitSeconds !== undefined) ? ` and ${ms(of(runs, 'mainWaitSeconds') * 1000)} waiting for a core` : '') +
    `, V8's helpers ${ms((of(runs, 'cpuSeconds') - of(runs, 'mainCpuSeconds')) * 1000)} of CPU`;
  notes.push(
    `30 d advance to a dead port, ${DEAD_PORT_PAIRS} runs quiet and ${DEAD_PORT_PAIRS} with ${busy[0].busy} \`while :; do :; done\` loops running through them, in turn, a new sandbox each: ` +
      `${quiet[0].pendingBefore} deliveries pending before (each refused twice in real time first); states afterwards ${JSON.stringify(quiet[0].after)} quiet, ${JSON.stringify(busy[0].after)} busy; ` +
      `quiet ${seconds(quiet)}, busy ${seconds(busy)}; medians, quiet: ${threads(quiet)}; busy: ${threads(busy)}.`,
  );
}

/** Many programmes: making one, its first request, its memory and the idle CPU of many. */
export async function programmeRows({ phase, nodeArgs, rows, notes, targets: TARGETS }) {
  const p = await phase('programmes', () => programmeCosts(nodeArgs));
  rows.push(
    row(
      `Make a programme (POST /_sandbox/programmes, median of ${p.count})`,
      {},
      `${fixed(p.medianMs, 2)} ms (p95 ${fixed(p.p95Ms, 2)} ms)`,
      `≤ ${TARGETS.programmeMs} ms`,
      p.medianMs <= TARGETS.programmeMs,
    ),
  );
  rows.push(row('First request to a new programme (its token; builds its services)', {}, `${fixed(p.firstUseMs, 2)} ms (median)`));
  rows.push(
    row(
      'Memory per programme (RSS growth over them all)',
      {},
      `${fixed(p.perProgrammeMiB, 3)} MiB; ${fixed(p.perProgrammeWithWorldMiB, 3)} MiB with a world each`,
      `≤ ${TARGETS.programmeMiB} MiB`,
      p.perProgrammeWithWorldMiB <= TARGETS.programmeMiB,
    ),
  );
  rows.push(
    row(
      `CPU while idle, ${p.count} programmes each with a card`,
      {},
      `${fixed(p.idleManyMsPerS, 2)} ms/s (default programme alone: ${fixed(p.idleAloneMsPerS, 2)} ms/s)`,
    ),
  );
  rows.push(row(`CPU while idle, ${p.count} programmes each with a card and a hold waiting to expire`, {}, `${fixed(p.idleHoldsMsPerS, 2)} ms/s`));
  notes.push(
    `Programmes: each has its own clock, jobs and retries, but one timer serves them all and wakes a programme only when its next item falls due; the worlds' card expiries are three years away, their holds' expiries seven days. Idle CPU is measured over ${p.idleSeconds} s.`,
  );
}

/** Snapshots: save, restore and fork a large programme, another programme's reads meanwhile, and retries after a restore. */
export async function snapshotRows({ phase, nodeArgs, rows, notes, targets: TARGETS }) {
  const s = await phase('snapshots', () => snapshotCosts(nodeArgs));
  const world = `${fixed(SNAPSHOT_CUSTOMERS)} customers, accounts and cards`;
  rows.push(
    row(
      `Save a snapshot of a programme of ${world} (median of ${s.rounds})`,
      {},
      `${ms(s.saveMs)}; its file ${fixed(s.bytes / 1_048_576, 1)} MiB`,
      `≤ ${TARGETS.snapshotMs} ms`,
      s.saveMs <= TARGETS.snapshotMs,
    ),
  );
  rows.push(
    row(
      "Restore it after a test's worth of change: a customer with an account and a card more, an hour on",
      {},
      ms(s.restoreMs),
      `≤ ${TARGETS.snapshotMs} ms`,
      s.restoreMs <= TARGETS.snapshotMs,
    ),
  );
  rows.push(row('Restore it after a reset: every row written again', {}, ms(s.restoreAfterResetMs)));
  rows.push(row('Fork a programme from it (POST /_sandbox/programmes {from})', {}, ms(s.forkMs), `≤ ${TARGETS.forkMs} ms`, s.forkMs <= TARGETS.forkMs));
  rows.push(row("Another programme's GET /v1/customers, alone", s.alone, s.alone.detail));
  rows.push(
    row(
      '… while the first is saved and restored over and over',
      s.during,
      `p99 ${fixed(s.during.p99, 1)} ms against ${fixed(s.alone.p99, 1)} ms alone; ${s.churned} saves and restores meanwhile${s.during.bad ? `; ${s.during.detail}` : ''}`,
    ),
  );
  notes.push(
    `Snapshots: the world is loaded by POST /_sandbox/seed (its events and the cards' expiry jobs included); each time is a request's, as the client sees it, on loopback. A restore keeps each table's rows that are still as the snapshot holds them, from the first on, and writes the rest again.`,
  );
  const r = await phase('snapshots, retries', () => retriesAfterRestore(nodeArgs));
  rows.push(
    row(
      `clock advance 24h after restoring a snapshot with ${fixed(PENDING_RETRIES)} failing deliveries mid-retry`,
      {},
      `${fixed(r.second.attempts)} attempts, ${fixed(r.second.requests)} sent; without the restore ${fixed(r.first.attempts)}, ${fixed(r.first.requests)}`,
      'the same attempts',
      r.same && r.restoredAsBefore,
    ),
  );
  notes.push(
    `Retries after a restore: ${r.pending} deliveries to a receiver answering 500, ${r.attemptsBefore} attempts made before the snapshot (--random-seed 7, frozen clock). A day advanced from the snapshot, the snapshot restored (${ms(r.restoreMs)}; the attempts then ${r.restoredAsBefore ? 'as at the snapshot' : 'NOT as at the snapshot'}), the same day advanced again: every attempt — delivery, number, time and status — ${r.same ? 'the same' : 'NOT the same'} both times.`,
  );
}

/** `card-sandbox parity` against a second sandbox, spawn to exit. */
export async function parityRows({ phase, nodeArgs, rows, notes, targets: TARGETS }) {
  const p = await phase('parity', () => parityRuns(nodeArgs));
  rows.push(
    row(
      `card-sandbox parity against a local upstream, spawn → exit (median of ${PARITY_RUNS})`,
      {},
      p.error ? `failed: ${p.error}` : `${fixed(p.medianSeconds, 1)} s; ${p.steps} steps, ${p.differing.join(', ')} differing`,
      `≤ ${TARGETS.paritySeconds} s`,
      !p.error && p.medianSeconds <= TARGETS.paritySeconds,
    ),
  );
  notes.push(
    `Parity: runs of ${p.runsSeconds.map((s) => `${fixed(s, 1)} s`).join(', ')} against a second sandbox (its own credentials and key, --verify strict), each comparing with a sandbox it starts in its own process; the journey's own waits (a 2 s deployment, 1 s captures and settlements) are most of it.`,
  );
}
