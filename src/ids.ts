/**
 * Ids and randomness: the one source of both. Production uses node:crypto; a seed (tests,
 * `--random-seed`, a programme's `randomSeed`) gives a generator whose runs repeat (docs/programmes.md:
 * Deterministic runs). What is drawn at moments the requests do not fix (a webhook attempt's
 * outcome, a request's id) comes from a stream of its own, `fork(label)`, so that it never shifts
 * what the requests draw.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';

export interface Random {
  /** `n` random bytes. */
  bytes(n: number): Buffer;
  /** A float in [0, 1). */
  float(): number;
  /**
   * A stream of its own for `label`: seeded, the same for the same seed and label whatever was
   * drawn before; unseeded, as random as this one.
   */
  fork(label: string): Random;
  /** Whether the draws repeat run after run (a seed was given). */
  readonly seeded: boolean;
}

export interface Ids {
  /** A UUID v4 for a resource. */
  uuid(): string;
}

export function cryptoRandom(): Random {
  const random: Random = {
    bytes: (n) => randomBytes(n),
    float: () => randomBytes(4).readUInt32BE(0) / 2 ** 32,
    fork: () => random,
    seeded: false,
  };
  return random;
}

/** A deterministic generator (sfc32): reproducible ids, nonces, card numbers and jitter. */
export function seededRandom(seed: number): Random {
  return sfc32([seed >>> 0, 0x9e3779b9, 0x243f6a88, 0xb7e15162], String(seed >>> 0));
}

/** sfc32 from four words of state; `key` names the stream, for its forks. */
function sfc32(state: [number, number, number, number], key: string): Random {
  let [a, b, c, d] = state;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  return {
    bytes(n) {
      const out = Buffer.alloc(Math.ceil(n / 4) * 4);
      for (let i = 0; i < out.length; i += 4) out.writeUInt32BE(next(), i);
      return out.subarray(0, n);
    },
    float: () => next() / 2 ** 32,
    fork(label) {
      const forked = `${key}/${label}`;
      const h = createHash('sha256').update(forked).digest();
      return sfc32([h.readUInt32BE(0), h.readUInt32BE(4), h.readUInt32BE(8), h.readUInt32BE(12)], forked);
    },
    seeded: true,
  };
}

export function uuidFrom(random: Random): Ids {
  return {
    uuid() {
      const b = random.bytes(16);
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
  };
}

export function cryptoIds(): Ids {
  return { uuid: () => randomUUID() };
}

/** Ids drawn from `random`: repeatable when it is seeded, node:crypto's otherwise. */
export function idsOf(random: Random): Ids {
  return random.seeded ? uuidFrom(random) : cryptoIds();
}
