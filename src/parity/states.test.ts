import { describe, expect, test } from 'vitest';
import { compareTracks, longestGap, runsOf, timingDiffers, TIMING_RULE, type Observation, type TrackRecord } from './states.js';

// States and timing (docs/parity.md: States and timing): what polling saw on each side, compared so
// that a loaded machine can neither hide a real difference nor make one up.
const every = (ms: number, ...states: [string, number][]): Observation[] =>
  states.flatMap(([state, count], i) => {
    const before = states.slice(0, i).reduce((n, [, c]) => n + c, 0);
    return Array.from({ length: count }, (_, j) => ({ state, at: (before + j) * ms }));
  });
const track = (observations: Observation[], settled = true): TrackRecord => ({ label: 'account', observations, settled, waitedMs: 30_000 });

describe('timingDiffers', () => {
  test.each([
    [2_000, 2_100, false],
    [2_000, 6_500, false], // 4.5 s apart: what a loaded machine can add
    [50, 4_000, false], // a hundred times slower, but only 4 s: a stall
    [60_000, 66_000, false], // 6 s apart but a tenth
    [2_000, 17_000, true],
    [0, 7_000, true],
    [30_000, 2_000, true],
  ])('%i ms against %i ms: %s', (upstream, local, differs) => {
    expect(timingDiffers(upstream, local)).toBe(differs);
  });

  test('the rule holds at its edges', () => {
    expect(timingDiffers(1_000, 1_000 + TIMING_RULE.minimumMs)).toBe(false);
    expect(timingDiffers(1_000, 1_001 + TIMING_RULE.minimumMs)).toBe(true);
  });
});

test('runsOf folds repeated readings; longestGap counts from the action', () => {
  const readings = [
    { state: 'pending', at: 10 },
    { state: 'pending', at: 210 },
    { state: 'active', at: 1_500 },
  ];
  expect(runsOf(readings)).toEqual([
    { state: 'pending', from: 10 },
    { state: 'active', from: 1_500 },
  ]);
  expect(longestGap(readings)).toBe(1_290);
  expect(longestGap([{ state: 'active', at: 2_500 }])).toBe(2_500);
});

describe('compareTracks', () => {
  test('the same states at about the same times: nothing', () => {
    expect(compareTracks(track(every(200, ['pending', 10], ['active', 1])), track(every(250, ['pending', 8], ['active', 2])))).toEqual([]);
  });

  test('a different sequence is a state-sequence difference', () => {
    expect(compareTracks(track(every(200, ['pending', 5], ['failed', 1])), track(every(200, ['pending', 5], ['active', 1])))).toEqual([
      { kind: 'state-sequence', where: 'account.status', upstream: ['pending', 'failed'], local: ['pending', 'active'] },
    ]);
  });

  test('a state one side saw for a second, and the other polled too rarely to see, is no difference', () => {
    const upstream = track(every(200, ['pending', 5], ['capturing', 5], ['captured', 1]));
    const local = track([
      { state: 'pending', at: 0 },
      { state: 'captured', at: 2_300 },
    ]);
    expect(compareTracks(upstream, local)).toEqual([]);
  });

  test('a state the other side polled often enough to see, and did not, is a difference', () => {
    const upstream = track(every(200, ['pending', 5], ['capturing', 5], ['captured', 1]));
    const local = track(every(200, ['pending', 10], ['captured', 1]));
    expect(compareTracks(upstream, local)).toEqual([
      { kind: 'state-sequence', where: 'account.status', upstream: ['pending', 'capturing', 'captured'], local: ['pending', 'captured'] },
    ]);
  });

  test('a side that never settled says for how long it waited', () => {
    expect(compareTracks(track(every(1_000, ['pending', 30]), false), track(every(200, ['pending', 10], ['active', 1])))).toEqual([
      { kind: 'state-sequence', where: 'account.status', upstream: ['pending', '(still so after 30 s)'], local: ['pending', 'active'] },
    ]);
  });

  test('a transition much slower on one side is a timing difference, in ms, named by its two states', () => {
    const upstream = track([...every(1_000, ['pending', 17]), { state: 'active', at: 17_000 }]);
    const local = track(every(200, ['pending', 10], ['active', 1]));
    expect(compareTracks(upstream, local)).toEqual([{ kind: 'timing', where: 'account.status pending → active', upstream: 17_000, local: 2_000 }]);
  });
});
