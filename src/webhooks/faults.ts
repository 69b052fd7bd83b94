/**
 * The delivery lab's decision for one attempt (docs/webhooks.md: Webhooks → The delivery lab), pure and
 * beside the retry policy. Given the faults in force for the delivery's subscription, what is
 * known of the attempt and a draw per fault, it says whether the attempt is held back (a delay,
 * or held behind the next event for the same entity), answered by the sandbox in the receiver's
 * place (a status without sending, or no answer), or sent — and then sent again if it succeeds.
 *
 * With a seed, each draw is a hash of the seed, the event's sequence number in its programme, the
 * attempt number and the fault: the same events meet the same faults on every run, whatever order
 * their attempts are decided in. Without one, draws come from the programme's randomness.
 */
import type { AttemptFault, DeliveryHold, Faults } from '../domain/webhook-faults.js';

/**
 * How long an event is held back waiting for a later one for its entity, at most, when none comes.
 * Once a later one is pending it waits for that one to be delivered or given up, checking again
 * at that one's next attempt and at least every RECHECK_MS.
 */
export const REORDER_HOLD_MS = 60_000;
export const RECHECK_MS = 1000;

export type FaultKind = 'delay' | 'reorder' | 'fail' | 'timeout' | 'duplicate' | 'forge';
const SALT: Record<FaultKind, number> = { delay: 0x1d, reorder: 0x2e, fail: 0x3f, timeout: 0x4a, duplicate: 0x5b, forge: 0x6c };

/** A draw from [0, 1) for each fault. */
export type Draw = (kind: FaultKind) => number;

/** murmur3's finaliser: every bit of the input moves about half the bits of the output. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The draws of one attempt under a seed: a hash of (seed, event sequence number, attempt, fault). */
export function seededDraw(seed: number, eventSeq: number, attempt: number): Draw {
  const base = mix(mix(mix(seed ^ 0x9e3779b9) ^ Math.imul(eventSeq, 0x27d4eb2d)) ^ Math.imul(attempt, 0x165667b1));
  return (kind) => mix(base ^ Math.imul(SALT[kind], 0x9e3779b1)) / 2 ** 32;
}

export interface AttemptFacts {
  /** 1-based number of the attempt about to be made, and the sandbox time it would be made at. */
  attempt: number;
  at: number;
  /** The hold the delivery comes out of, if it was held back. */
  held: DeliveryHold | null;
  /** Whether an earlier event for the same entity is being held back for this subscription (asked only when it matters). */
  overtakes: () => boolean;
  /** For a held-back event: when a later event's delivery for the same entity is due (null: paused), or undefined when there is none. */
  laterPending: () => number | null | undefined;
}

export type Plan =
  /** Not now: hold the delivery back for `forMs` (a delay), or until the next event for its entity is delivered. */
  | { action: 'hold'; hold: 'delayed' | 'holding'; forMs: number }
  /** Record an answer the receiver never gave: a status (`spendsFail`: one of `fail.times`), or none. */
  | { action: 'answer'; fault: 'injected-status'; statusCode: number; spendsFail: boolean }
  | { action: 'answer'; fault: 'injected-timeout' }
  /** Send it; if it succeeds and `duplicate`, send the same again. */
  | { action: 'send'; fault?: AttemptFault; duplicate: boolean };

export const SEND: Plan = { action: 'send', duplicate: false };

/**
 * The decision. A first attempt may be held back for reordering or delayed; an event held back
 * for reordering waits while a later one for its entity is pending. Any attempt may be answered
 * for the receiver (`fail`, then `timeout`); anything sent may be duplicated. A hold is recorded
 * on the attempt that takes the event to the receiver at last — `reordered` when a later event
 * for its entity was delivered first, `delayed` otherwise — so an answered one passes it on.
 */
export function decideAttempt(faults: Faults | undefined, facts: AttemptFacts, draw: Draw): Plan {
  const { held } = facts;
  if (held === 'holding') {
    const later = facts.laterPending();
    if (later !== undefined) return { action: 'hold', hold: 'holding', forMs: later === null ? REORDER_HOLD_MS : Math.max(later - facts.at, RECHECK_MS) };
  }
  const carried: AttemptFault | undefined = held === null ? undefined : held === 'reordered' ? 'reordered' : 'delayed';
  if (!faults) return carried ? { action: 'send', fault: carried, duplicate: false } : SEND;
  if (facts.attempt === 1 && held === null) {
    if (faults.reorder && draw('reorder') < faults.reorder && !facts.overtakes()) return { action: 'hold', hold: 'holding', forMs: REORDER_HOLD_MS };
    if (faults.delay) {
      const { minMs, maxMs } = faults.delay;
      const forMs = minMs + Math.floor(draw('delay') * (maxMs - minMs + 1));
      if (forMs > 0) return { action: 'hold', hold: 'delayed', forMs };
    }
  }
  const { fail, timeout } = faults;
  if (fail) {
    if ('remaining' in fail) {
      if (fail.remaining > 0) return { action: 'answer', fault: 'injected-status', statusCode: fail.status, spendsFail: true };
    } else if (fail.rate > 0 && draw('fail') < fail.rate) return { action: 'answer', fault: 'injected-status', statusCode: fail.status, spendsFail: false };
  }
  if (timeout && draw('timeout') < timeout) return { action: 'answer', fault: 'injected-timeout' };
  // A forged delivery is sent once, its body changed after signing; the real one comes at the retry.
  if (faults.forge && draw('forge') < faults.forge) return { action: 'send', fault: 'forged', duplicate: false };
  const duplicate = faults.duplicate !== undefined && faults.duplicate > 0 && draw('duplicate') < faults.duplicate;
  return carried ? { action: 'send', fault: carried, duplicate } : duplicate ? { action: 'send', duplicate: true } : SEND;
}

/**
 * What the dispatcher asks of the programme's lab settings for each attempt, all answered from
 * memory: with no faults and no pause anywhere, an attempt costs nothing more than before.
 */
export interface FaultSource {
  /** Whether any subscription of the programme has faults in force. */
  readonly active: boolean;
  /** The faults in force for a subscription: its own, else the programme's. */
  faultsFor(webhookId: string): Faults | undefined;
  /** Whether a subscription's deliveries are held while paused (its own pause, or the programme's). */
  paused(webhookId: string): boolean;
  /** One of `fail.times` was used for this subscription. */
  spendFail(webhookId: string): void;
}
