/**
 * What each webhook attempt does under the delivery lab's faults (docs/webhooks.md: Webhooks → The
 * delivery lab): the decision for each attempt and the draws it takes, what becomes of a hold, and
 * the rules of the lab's controls (resume, retry, exhaust).
 */
import { fail } from './errors.js';
import type { DeliveryStatus } from './outbox.js';
import { FORGERIES, type AttemptFault, type DeliveryHold, type Faults, type Forgery } from './webhook-faults.js';

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

/** The draws of an attempt under `faults`: seeded when they name a seed, else `unseeded` (the programme's randomness). */
export const attemptDraw = (faults: Faults | undefined, eventSeq: number, attempt: number, unseeded: Draw): Draw =>
  faults?.seed !== undefined ? seededDraw(faults.seed, eventSeq, attempt) : unseeded;

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
  /** How many forged attempts the programme's dispatcher has decided on before this one: the rotation's place (0 when absent). */
  forged?: number;
}

/**
 * The kind of the `n`th forged attempt (from 0): FORGERIES in turn, so that seven forgeries try each
 * once, starting where the faults' seed says (at the first without one).
 */
export const forgeryOf = (n: number, seed: number | undefined): Forgery => FORGERIES[(n + (seed ?? 0)) % FORGERIES.length]!;

export type Plan =
  /** Not now: hold the delivery back for `forMs` (a delay), or until the next event for its entity is delivered. */
  | { action: 'hold'; hold: 'delayed' | 'holding'; forMs: number }
  /** Record an answer the receiver never gave: a status (`spendsFail`: one of `fail.times`), or none. */
  | { action: 'answer'; fault: 'injected-status'; statusCode: number; spendsFail: boolean }
  | { action: 'answer'; fault: 'injected-timeout' }
  /** Send it (forged, as `forgery` says, when the fault is `forged`); if it succeeds and `duplicate`, send the same again. */
  | { action: 'send'; fault?: AttemptFault; forgery?: Forgery; duplicate: boolean };

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
  const carried: AttemptFault | undefined = letGo(held) ?? undefined;
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
  // A forged delivery is sent once, as the next kind in rotation says; the real one comes at the retry.
  if (faults.forge && draw('forge') < faults.forge)
    return { action: 'send', fault: 'forged', forgery: forgeryOf(facts.forged ?? 0, faults.seed), duplicate: false };
  const duplicate = faults.duplicate !== undefined && faults.duplicate > 0 && draw('duplicate') < faults.duplicate;
  return carried ? { action: 'send', fault: carried, duplicate } : duplicate ? { action: 'send', duplicate: true } : SEND;
}

/** The faults after one of `fail.times` is used: the count down by one, never below 0; unchanged for a rate. */
export function spendFail(faults: Faults): Faults {
  if (!faults.fail || !('remaining' in faults.fail)) return faults;
  return { ...faults, fail: { ...faults.fail, remaining: Math.max(0, faults.fail.remaining - 1) } };
}

/**
 * The hold a delivery's next attempt records once it is let go before what it waited for: held
 * back for reordering (`holding`), it counts as delayed; `delayed` and `reordered` stay.
 */
export function letGo(hold: DeliveryHold | null): Exclude<DeliveryHold, 'holding'> | null {
  return hold === 'holding' ? 'delayed' : hold;
}

/**
 * The hold a delivery keeps after an attempt whose first outcome recorded `fault`: an answer the
 * sandbox gave in the receiver's place passes it on to the attempt that reaches the receiver, which ends it.
 */
export const holdAfter = (fault: AttemptFault | undefined, hold: DeliveryHold | null): DeliveryHold | null =>
  fault === 'injected-status' || fault === 'injected-timeout' ? letGo(hold) : null;

/** Whether the events held back for reordering in a scope are let go when `faults` are in force there: when they do not reorder. */
export const releasesHolds = (faults: Faults | undefined): boolean => !faults?.reorder;

/**
 * The subscriptions whose deliveries stay held when the programme (`webhookId` undefined) or one
 * subscription resumes: the programme's resume leaves those paused on their own; one
 * subscription's lets nothing go while the programme is paused (undefined).
 */
export function heldAfterResume(webhookId: string | undefined, programmePaused: boolean, pausedHooks: Iterable<string>): string[] | undefined {
  return webhookId === undefined ? [...pausedHooks] : programmePaused ? undefined : [];
}

/** What the delivery controls read of a delivery. */
export interface ControlledDelivery {
  id: string;
  eventId: string;
  status: DeliveryStatus;
  hold: DeliveryHold | null;
}

/**
 * A delivery retried at `now`: its next attempt due now, ahead of its schedule — even while
 * paused or held back (the hold let go) — or one more attempt for a discarded one. A delivered one
 * is refused (its event is resent instead), as is one discarded when its webhook was deleted.
 */
export function retried(delivery: ControlledDelivery, now: number, webhookExists: () => boolean) {
  const { id, eventId, status, hold } = delivery;
  if (status === 'delivered')
    fail('invalid_state_transition', `delivery ${id} was delivered; to send its event again, resend it (POST /_sandbox/events/${eventId}/resend)`);
  if (status === 'discarded' && !webhookExists()) fail('invalid_state_transition', `delivery ${id} was discarded when its webhook was deleted`);
  return { status: 'pending' as const, nextAttemptAt: now, pausedDueAt: null, hold: letGo(hold), updatedAt: now };
}

/** A delivery exhausted at `now`, as its 24 h of retries running out would leave it: discarded. A delivered one is refused. */
export function exhausted(delivery: ControlledDelivery, now: number) {
  if (delivery.status === 'delivered') fail('invalid_state_transition', `delivery ${delivery.id} was delivered already`);
  return { status: 'discarded' as const, nextAttemptAt: null, pausedDueAt: null, hold: null, updatedAt: now };
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
