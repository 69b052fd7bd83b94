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
});
