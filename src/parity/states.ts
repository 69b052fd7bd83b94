/**
 * The states a resource went through after a simulator action, as polling saw them, and how the two
 * services' sequences and timings are compared (docs/parity.md: States and timing). Polling sees a
 * state only if it lasts longer than the time between two polls, so a state one side saw briefly
 * and the other could not have seen is not a difference; and a transition's time differs only by
 * more than a loaded machine can add. Pure.
 */
import type { Difference } from './difference.js';

/** One poll's reading: the state, and when it was read, in ms after the action was answered. */
export interface Observation {
  state: string;
  at: number;
}

/** Everything one side saw of one resource after one action. */
export interface TrackRecord {
  /** The resource, by its label: `account`, `transaction-of-authorisation`. */
  label: string;
  observations: Observation[];
  /** Whether it reached a state the step waits for before the wait ran out. */
  settled: boolean;
  waitedMs: number;
}

/**
 * A transition's time differs when the two services are more than `minimumMs` apart and the slower
 * took more than `factor` times as long as the faster (counted as at least `floorMs`): polling,
 * a loaded machine and the network add a second or two, never this.
 */
export const TIMING_RULE = { minimumMs: 5_000, factor: 2, floorMs: 1_000 } as const;

export function timingDiffers(upstreamMs: number, localMs: number): boolean {
  const [fast, slow] = upstreamMs < localMs ? [upstreamMs, localMs] : [localMs, upstreamMs];
  return slow - fast > TIMING_RULE.minimumMs && slow > TIMING_RULE.factor * Math.max(fast, TIMING_RULE.floorMs);
}

interface Run {
  state: string;
  from: number;
}

/** Consecutive readings of the same state as one run, from when it was first read. */
export function runsOf(observations: readonly Observation[]): Run[] {
  const runs: Run[] = [];
  for (const { state, at } of observations) if (runs.at(-1)?.state !== state) runs.push({ state, from: at });
  return runs;
}

/** The longest time in which a state could have come and gone unseen: between the action and the first reading, or two readings. */
export function longestGap(observations: readonly Observation[]): number {
  let gap = 0;
  let last = 0;
  for (const { at } of observations) {
    gap = Math.max(gap, at - last);
    last = at;
  }
  return gap;
}

/** A side's runs without those the other side could not have seen: a state it never read, that lasted no longer than its longest gap. */
function visible(runs: Run[], other: Run[], otherGap: number): Run[] {
  return runs.filter((run, i) => i === runs.length - 1 || other.some((o) => o.state === run.state) || runs[i + 1]!.from - run.from > otherGap);
}

const sequence = (runs: Run[], record: TrackRecord) => [
  ...runs.map((r) => r.state),
  ...(record.settled ? [] : [`(still so after ${Math.round(record.waitedMs / 1000)} s)`]),
];

/** The differences between what the two services went through after the same action. */
export function compareTracks(upstream: TrackRecord, local: TrackRecord): Difference[] {
  const where = `${upstream.label}.status`;
  const [ur, lr] = [runsOf(upstream.observations), runsOf(local.observations)];
  const u = visible(ur, lr, longestGap(local.observations));
  const l = visible(lr, ur, longestGap(upstream.observations));
  const [us, ls] = [sequence(u, upstream), sequence(l, local)];
  if (us.join('\n') !== ls.join('\n')) return [{ kind: 'state-sequence', where, upstream: us, local: ls }];
  const differences: Difference[] = [];
  for (let i = 1; i < u.length; i++) {
    const [ut, lt] = [u[i]!.from - u[i - 1]!.from, l[i]!.from - l[i - 1]!.from];
    if (timingDiffers(ut, lt))
      differences.push({ kind: 'timing', where: `${where} ${u[i - 1]!.state} → ${u[i]!.state}`, upstream: Math.round(ut), local: Math.round(lt) });
  }
  return differences;
}
