/**
 * Ids and randomness: the one source of both. Production uses node:crypto; a seed (tests,
 * `--random-seed`, a programme's `randomSeed`) gives a generator whose runs repeat (docs/programmes.md:
 * Deterministic runs). What is drawn at moments the requests do not fix (a webhook attempt's
 * outcome, a request's id) comes from a stream of its own, `fork(label)`, so that it never shifts
 * what the requests draw. A seeded stream says where it stands, and can be put back there (a
 * snapshot, docs/snapshots.md).
 */
import { createHash, randomBytes, randomFillSync, randomUUID } from 'node:crypto';

/** Where a seeded stream stands: its name (which its forks derive from) and its four words of state. */
export interface RandomState {
  key: string;
  words: [number, number, number, number];
}

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
  /** Where it stands; undefined for an unseeded stream. */
  state(): RandomState | undefined;
  /** Puts it where `state` says: seeded from there on, or unseeded for undefined. */
  restore(state: RandomState | undefined): void;
}

export interface Ids {
  /** A UUID v4 for a resource. */
  uuid(): string;
}

/** sfc32 from four words of state, `key` naming it for its forks. */
function sfc32({ key, words }: RandomState) {
  let [a, b, c, d] = words;
  return {
    key,
    next(): number {
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
    },
    state: (): RandomState => ({ key, words: [a >>> 0, b >>> 0, c >>> 0, d >>> 0] }),
  };
}

/** A stream's start: its first words, stirred. */
function start(key: string, words: RandomState['words']): RandomState {
  const generator = sfc32({ key, words });
  for (let i = 0; i < 12; i++) generator.next();
  return generator.state();
}

/**
 * node:crypto's bytes for unseeded streams, drawn a page at a time: a draw of a few bytes (a float's
 * four, a nonce's) cost more than what they were for. Each byte is handed out once.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
/** Where the next `n` bytes of the pool start, drawing a new page when fewer are left. */
function take(n: number): number {
  if (poolAt + n > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += n;
  return poolAt - n;
}
const cryptoWord = (): number => pool.readUInt32BE(take(4));
function cryptoBytes(n: number): Buffer {
  if (n > pool.length) return randomBytes(n);
  const at = take(n);
  return Buffer.from(pool.subarray(at, at + n));
}

/** A stream: seeded from `from`, or node:crypto's for undefined. */
function stream(from: RandomState | undefined): Random {
  let generator = from && sfc32(from);
  return {
    bytes(n) {
      if (!generator) return cryptoBytes(n);
      const out = Buffer.alloc(Math.ceil(n / 4) * 4);
      for (let i = 0; i < out.length; i += 4) out.writeUInt32BE(generator.next(), i);
      return out.subarray(0, n);
    },
    float: () => (generator ? generator.next() : cryptoWord()) / 2 ** 32,
    fork(label) {
      if (!generator) return stream(undefined);
      const key = `${generator.key}/${label}`;
      const h = createHash('sha256').update(key).digest();
      return stream(start(key, [h.readUInt32BE(0), h.readUInt32BE(4), h.readUInt32BE(8), h.readUInt32BE(12)]));
    },
    get seeded() {
      return generator !== undefined;
    },
    state: () => generator?.state(),
    restore(state) {
      generator = state && sfc32(state);
    },
  };
}

export function cryptoRandom(): Random {
  return stream(undefined);
}

/** A deterministic generator (sfc32): reproducible ids, nonces, card numbers and jitter. */
export function seededRandom(seed: number): Random {
  return stream(start(String(seed >>> 0), [seed >>> 0, 0x9e3779b9, 0x243f6a88, 0xb7e15162]));
}

const uuidOf = (b: Buffer): string => {
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

export function uuidFrom(random: Random): Ids {
  return { uuid: () => uuidOf(random.bytes(16)) };
}

/** Ids drawn from `random`: repeatable while it is seeded, node:crypto's otherwise. */
export function idsOf(random: Random): Ids {
  return { uuid: () => (random.seeded ? uuidOf(random.bytes(16)) : randomUUID()) };
}
