/**
 * Ids and randomness: the one source of both. Production uses node:crypto; tests use a seeded
 * generator so that their runs are reproducible.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export interface Random {
  /** `n` random bytes. */
  bytes(n: number): Buffer;
  /** A float in [0, 1). */
  float(): number;
}

export interface Ids {
  /** A UUID v4 for a resource. */
  uuid(): string;
}

export function cryptoRandom(): Random {
  return {
    bytes: (n) => randomBytes(n),
    float: () => randomBytes(4).readUInt32BE(0) / 2 ** 32,
  };
}

/** A deterministic generator (sfc32): reproducible ids and jitter for tests. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0, b = 0x9e3779b9, c = 0x243f6a88, d = 0xb7e15162;
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
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
