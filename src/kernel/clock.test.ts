/** The sandbox clock (docs/control-plane.md: Time travel and the control plane): moving or frozen, advanced only forwards, and --clock parsing. */
import { describe, expect, it } from 'vitest';
import { iso, parseClockOption } from '../domain/instant.js';
import { createClock } from './clock.js';

const T = Date.parse('2026-03-01T09:00:00.000Z');

/** A wall clock the test moves by hand. */
function manualWall(start = T) {
  let t = start;
  return { now: () => t, set: (to: number) => void (t = to) };
}

describe('createClock', () => {
  it('moves with the wall clock plus an offset', () => {
    const wall = manualWall();
    const clock = createClock({ wall: wall.now, offset: 5000 });
    expect(clock.frozen).toBe(false);
    expect(clock.now()).toBe(T + 5000);
    wall.set(T + 1000);
    expect(clock.now()).toBe(T + 6000);
    expect(clock.wall()).toBe(T + 1000);
    expect(clock.offset()).toBe(5000);
  });

  it('stays put when frozen, whatever the wall clock does', () => {
    const wall = manualWall();
    const clock = createClock({ wall: wall.now, frozenAt: T - 86_400_000 });
    expect(clock.frozen).toBe(true);
    wall.set(T + 60_000);
    expect(clock.now()).toBe(T - 86_400_000);
    expect(clock.wall()).toBe(T + 60_000);
  });

  it('advances a frozen clock to exactly the instant asked, and stays frozen there', () => {
    const clock = createClock({ frozenAt: T });
    clock.advanceTo(T + 3_600_000);
    expect(clock.now()).toBe(T + 3_600_000);
    expect(clock.now()).toBe(T + 3_600_000);
  });

  it('advances a moving clock by growing its offset, then keeps moving', () => {
    const wall = manualWall();
    const clock = createClock({ wall: wall.now });
    clock.advanceTo(T + 86_400_000);
    expect(clock.now()).toBe(T + 86_400_000);
    expect(clock.offset()).toBe(86_400_000);
    wall.set(T + 10);
    expect(clock.now()).toBe(T + 86_400_010);
  });

  it('never moves backwards: not by advanceTo, not when the wall clock steps back', () => {
    const wall = manualWall();
    const moving = createClock({ wall: wall.now });
    moving.advanceTo(T - 1000);
    expect(moving.now()).toBe(T);
    wall.set(T - 60_000);
    expect(moving.now()).toBe(T);
    wall.set(T + 5);
    expect(moving.now()).toBe(T + 5);

    const frozen = createClock({ frozenAt: T });
    frozen.advanceTo(T - 1);
    expect(frozen.now()).toBe(T);
  });

  it('works when its methods are passed around on their own', () => {
    const { now, advanceTo } = createClock({ frozenAt: T });
    advanceTo(T + 1);
    expect(now()).toBe(T + 1);
  });

  it('reports the offset of a frozen clock from the wall, for persisting', () => {
    const wall = manualWall();
    expect(createClock({ wall: wall.now, frozenAt: T + 500 }).offset()).toBe(500);
  });

  it('is put back where a snapshot says, frozen or running from there, even behind where it was', () => {
    const wall = manualWall();
    const clock = createClock({ wall: wall.now });
    clock.advanceTo(T + 30 * 86_400_000);
    clock.set({ now: T - 1000, frozen: true });
    expect(clock.frozen).toBe(true);
    wall.set(T + 60_000);
    expect(clock.now()).toBe(T - 1000);

    clock.set({ now: T + 1000, frozen: false });
    expect(clock.frozen).toBe(false);
    expect(clock.now()).toBe(T + 1000);
    wall.set(T + 70_000);
    expect(clock.now()).toBe(T + 11_000);
  });
});

describe('parseClockOption', () => {
  it.each([
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01T00:00:00.123Z', '2026-01-01T00:00:00.123Z'],
    ['2026-01-01T01:00:00+01:00', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01T00:00:00-0530', '2026-01-01T05:30:00.000Z'],
    ['2026-01-01', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01T09:30', '2026-01-01T09:30:00.000Z'],
    ['2026-01-01T09:30:00', '2026-01-01T09:30:00.000Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
  ])('reads %s as %s (UTC unless an offset is given)', (value, expected) => {
    expect(iso(parseClockOption(value, 0)!)).toBe(expected);
  });

  it('reads "now" as the wall clock at start', () => {
    expect(parseClockOption('now', T)).toBe(T);
  });

  it.each(['', 'tomorrow', '2026-13-01', '2026-02-30', '2027-02-29', '2026-01-01T25:00:00Z', '2026-1-1', '1767225600000', '2026-01-01 00:00:00Z', 'NOW'])(
    'refuses %j',
    (value) => {
      expect(parseClockOption(value, T)).toBeUndefined();
    },
  );
});

describe('iso', () => {
  it('writes RFC 3339 UTC with milliseconds', () => {
    expect(iso(T + 123)).toBe('2026-03-01T09:00:00.123Z');
  });
});
