/** The `forge` fault's rotation (docs/webhooks.md: Forged deliveries): seven forgeries try every kind once, from where the seed says. */
import { describe, expect, it } from 'vitest';
import { decideAttempt, forgeryOf, type AttemptFacts, type Draw } from './webhook-attempts.js';
import { FORGERIES } from './webhook-faults.js';

const facts = (forged: number): AttemptFacts => ({ attempt: 1, at: 0, held: null, overtakes: () => false, laterPending: () => undefined, forged });
const always: Draw = () => 0;

describe('forgeries in rotation', () => {
  it('tries every kind once in seven forged attempts, without a seed from the first kind', () => {
    const kinds = Array.from({ length: 7 }, (_, n) => forgeryOf(n, undefined));
    expect(kinds).toEqual([...FORGERIES]);
    expect(forgeryOf(7, undefined)).toBe('body-changed');
  });

  it('starts where the seed says, and still tries every kind in seven', () => {
    const kinds = Array.from({ length: 7 }, (_, n) => forgeryOf(n, 3));
    expect(kinds[0]).toBe(FORGERIES[3]);
    expect(new Set(kinds).size).toBe(7);
    // The same seed, the same order: a seeded run meets the same forgeries.
    expect(Array.from({ length: 7 }, (_, n) => forgeryOf(n, 3))).toEqual(kinds);
    expect(forgeryOf(0, 2 ** 32 - 1)).toBe(FORGERIES[(2 ** 32 - 1) % 7]);
  });

  it('puts the kind on the plan of a forged attempt, from the count of forgeries before it', () => {
    expect(decideAttempt({ forge: 1 }, facts(5), always)).toEqual({ action: 'send', fault: 'forged', forgery: 'unsigned', duplicate: false });
    expect(decideAttempt({ forge: 1, seed: 1 }, facts(6), always)).toMatchObject({ forgery: 'body-changed' });
  });
});
