import { describe, expect, it } from 'vitest';
import { cryptoRandom, idsOf, seededRandom } from './ids.js';

describe('seeded streams', () => {
  it('repeat for the same seed', () => {
    expect(seededRandom(7).bytes(32)).toEqual(seededRandom(7).bytes(32));
    expect(seededRandom(7).bytes(32)).not.toEqual(seededRandom(8).bytes(32));
  });

  it('fork by label, whatever the parent drew before', () => {
    const fresh = seededRandom(7);
    const used = seededRandom(7);
    used.bytes(100);
    expect(used.fork('a').bytes(16)).toEqual(fresh.fork('a').bytes(16));
    expect(fresh.fork('a').bytes(16)).not.toEqual(fresh.fork('b').bytes(16));
    expect(seededRandom(8).fork('a').bytes(16)).not.toEqual(fresh.fork('a').bytes(16));
    expect(fresh.fork('a').fork('b').bytes(16)).not.toEqual(fresh.fork('b').bytes(16));
  });

  it('give repeatable UUID v4 ids when seeded, random ones otherwise', () => {
    expect(idsOf(seededRandom(1)).uuid()).toBe(idsOf(seededRandom(1)).uuid());
    expect(idsOf(seededRandom(1)).uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const random = cryptoRandom();
    expect(random.seeded).toBe(false);
    expect(random.fork('x').seeded).toBe(false);
    expect(idsOf(random).uuid()).not.toBe(idsOf(random).uuid());
  });

  it('say where they stand, and go on from there when put back', () => {
    const random = seededRandom(7);
    random.bytes(10);
    const state = random.state()!;
    const next = random.bytes(32);
    random.bytes(100);
    random.restore(state);
    expect(random.bytes(32)).toEqual(next);
    // The state is plain data: a copy of it, elsewhere, draws the same, and forks the same.
    const elsewhere = cryptoRandom();
    elsewhere.restore(JSON.parse(JSON.stringify(state)));
    expect(elsewhere.seeded).toBe(true);
    expect(elsewhere.bytes(32)).toEqual(next);
    expect(elsewhere.fork('a').bytes(16)).toEqual(seededRandom(7).fork('a').bytes(16));
    expect(idsOf(elsewhere).uuid()).toMatch(/^[0-9a-f]{8}-/);
  });

  it('an unseeded stream has no state, and one put back without a state is unseeded', () => {
    expect(cryptoRandom().state()).toBeUndefined();
    const random = seededRandom(7);
    random.restore(undefined);
    expect(random.seeded).toBe(false);
    expect(random.bytes(16)).not.toEqual(random.bytes(16));
  });

  it('an unseeded stream never hands out the same bytes twice, across its pages and beyond one', () => {
    const random = cryptoRandom();
    const drawn = Array.from({ length: 2000 }, (_, i) => random.bytes(1 + (i % 24)));
    expect(drawn.map((b) => b.length)).toEqual(drawn.map((_, i) => 1 + (i % 24)));
    const long = drawn.filter((b) => b.length >= 12).map((b) => b.toString('hex'));
    expect(new Set(long).size).toBe(long.length);
    const large = random.bytes(10_000);
    expect(large.length).toBe(10_000);
    expect(large.subarray(0, 16)).not.toEqual(large.subarray(16, 32));
  });

  it('ids follow their stream: seeded ones once it is put back to a seeded state', () => {
    const random = cryptoRandom();
    const ids = idsOf(random);
    random.restore(seededRandom(7).state());
    expect(ids.uuid()).toBe(idsOf(seededRandom(7)).uuid());
  });
});
