/**
 * The attempts in flight, shared fairly (docs/webhooks.md: Sharing the attempts in flight). Every
 * programme's dispatcher sends through one pool of keep-alive agents, with at most `max` attempts
 * in flight in all besides each programme's first — the bound on sockets receivers that never
 * answer can hold is `max` plus one per programme. Within it:
 *
 * - a programme with no attempt in flight always takes one, however many the others have hanging:
 *   its first attempt is its own, never one of the `max`, so that however many programmes' receivers
 *   hang, another programme's next webhook goes out at once;
 * - a programme takes at most half of the slots the others leave free (rounded up), so that one
 *   whose receiver hangs can never hold them all;
 * - within its programme's share, a subscription takes at most half of what the programme's other
 *   subscriptions leave, so that one endpoint cannot starve the programme's others;
 * - time travel takes its programme's share, and beyond it any slot that leaves `reserve` free: a
 *   programme advancing alone uses all but the reserve, which is kept for those within their share
 *   (another programme's next webhooks go out at once however long the advance's attempts hang).
 *
 * Shares follow what is held now: a programme alone has half the pool, and the slots a hanging
 * receiver holds come back as its attempts time out (--webhook-timeout) or are cut short (a
 * restore, a deleted programme). `take` asks without waiting (real time); `acquire` waits its turn
 * (time travel, a duplicate).
 */
import { createAgents, type Agents } from './send.js';

/** Someone waiting for a slot. */
interface Waiter {
  programme: string;
  subscription: string;
  /** Time travel's (its programme's share, or a slot beyond the reserve), or held to its subscription's share too (real time, a duplicate). */
  travel: boolean;
  resolve: (taken: boolean) => void;
}

export function createSendPool(max: number) {
  /** The slots time travel leaves free beyond its programme's share: an eighth of the pool. */
  const reserve = Math.max(1, Math.floor(max / 8));
  let active = 0;
  const byProgramme = new Map<string, number>();
  const bySubscription = new Map<string, number>();
  const waiters: Waiter[] = [];
  /** Dispatchers that found no room: told when some comes back. */
  const wanting = new Set<() => void>();

  const key = (programme: string, subscription: string) => `${programme} ${subscription}`;
  const held = (programme: string) => byProgramme.get(programme) ?? 0;
  const heldBy = (programme: string, subscription: string) => bySubscription.get(key(programme, subscription)) ?? 0;

  /** The most a programme may hold now: half of what the others leave free, at least one. */
  const programmeShare = (programme: string) => Math.max(1, Math.ceil((max - (active - held(programme))) / 2));
  /** The most one of its subscriptions may hold: half of what the programme's others leave of its share. */
  const subscriptionShare = (programme: string, subscription: string) =>
    Math.max(1, Math.ceil((programmeShare(programme) - (held(programme) - heldBy(programme, subscription))) / 2));

  const fits = (programme: string, subscription: string, travel = false) =>
    held(programme) === 0 ||
    (active < max &&
      (travel
        ? held(programme) < programmeShare(programme) || max - active > reserve
        : held(programme) < programmeShare(programme) && heldBy(programme, subscription) < subscriptionShare(programme, subscription)));

  const count = (programme: string, subscription: string, by: 1 | -1) => {
    active += by;
    const p = held(programme) + by;
    if (p === 0) byProgramme.delete(programme);
    else byProgramme.set(programme, p);
    const k = key(programme, subscription);
    const s = (bySubscription.get(k) ?? 0) + by;
    if (s === 0) bySubscription.delete(k);
    else bySubscription.set(k, s);
  };

  const pool = {
    // The pool is the bound on sockets: the agents queue nothing, or a programme's first attempt would wait behind others to the same receiver.
    agents: createAgents(Infinity) as Agents,
    max,
    reserve,
    /** Attempts in flight now, across programmes. */
    get active(): number {
      return active;
    },
    /** Attempts in flight now for a programme (and one of its subscriptions). */
    held: (programme: string, subscription?: string): number => (subscription === undefined ? held(programme) : heldBy(programme, subscription)),

    /** How many more attempts the programme may start now: at least its first. */
    room: (programme: string): number => Math.max(held(programme) === 0 ? 1 : 0, Math.min(max - active, programmeShare(programme) - held(programme))),

    /** The programme's subscriptions holding their whole share now: their deliveries wait. */
    full(programme: string): string[] {
      const prefix = `${programme} `;
      const found: string[] = [];
      for (const [k, n] of bySubscription) {
        if (!k.startsWith(prefix)) continue;
        const subscription = k.slice(prefix.length);
        if (n >= subscriptionShare(programme, subscription)) found.push(subscription);
      }
      return found;
    },

    /** Takes a slot now if the shares allow; true when taken. `wakeMe` is called once room comes back, when not. */
    take(programme: string, subscription: string, wakeMe?: () => void): boolean {
      if (fits(programme, subscription)) {
        count(programme, subscription, 1);
        return true;
      }
      if (wakeMe) wanting.add(wakeMe);
      return false;
    },

    /** Asks to be told (once) when a slot comes back: a dispatcher that found no room. */
    whenRoom(wake: () => void): void {
      wanting.add(wake);
    },

    /**
     * Waits for a slot; resolves true once taken, or false if `signal` aborts first. Time travel
     * (`travel`) waits for its programme's share or a slot beyond the reserve, not its subscription's:
     * the deliveries of one step go out together and are recorded together, so no subscription of
     * it waits on another.
     */
    acquire(programme: string, subscription: string, signal?: AbortSignal, travel = false): Promise<boolean> {
      if (signal?.aborted) return Promise.resolve(false);
      if (fits(programme, subscription, travel)) {
        count(programme, subscription, 1);
        return Promise.resolve(true);
      }
      return new Promise<boolean>((resolve) => {
        const abort = () => {
          const at = waiters.indexOf(waiter);
          if (at < 0) return;
          waiters.splice(at, 1);
          resolve(false);
        };
        // Given a slot, it stops listening: the signal outlives many waits.
        const waiter: Waiter = { programme, subscription, travel, resolve: (taken) => (signal?.removeEventListener('abort', abort), resolve(taken)) };
        waiters.push(waiter);
        signal?.addEventListener('abort', abort, { once: true });
      });
    },

    /** Gives a slot back: waiters first, in turn, then the dispatchers that found no room (one whose programme now holds none has some). */
    give(programme: string, subscription: string): void {
      count(programme, subscription, -1);
      for (let i = 0; i < waiters.length;) {
        const waiter = waiters[i]!;
        if (!fits(waiter.programme, waiter.subscription, waiter.travel)) {
          i++;
          continue;
        }
        waiters.splice(i, 1);
        count(waiter.programme, waiter.subscription, 1);
        waiter.resolve(true);
      }
      if (wanting.size > 0 && (active < max || held(programme) === 0)) {
        const woken = [...wanting];
        wanting.clear();
        for (const wake of woken) wake();
      }
    },
  };
  return pool;
}

export type SendPool = ReturnType<typeof createSendPool>;
