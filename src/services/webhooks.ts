/**
 * Webhooks (docs/webhooks.md: Webhooks): subscriptions, the P-384 key that signs every delivery, resending an
 * event or every event of a window, and the feed of attempt outcomes the control plane follows.
 * Sending and retrying is the dispatcher's (webhooks/dispatcher.ts); the delivery rows are written
 * by events.ts; faults and pauses are the delivery lab's (delivery-lab.ts).
 */
import { createPublicKey } from 'node:crypto';
import { and, asc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Core } from './core.js';
import { fail } from '../domain/errors.js';
import { callbackHostProblem } from '../domain/addresses.js';
import { callbackUrlProblem } from '../domain/formats.js';
import { deliveries, events as eventRows, webhooks } from '../store/schema.js';
import { spkiPem } from '../signatures/keys.js';
import { createDispatcher, type AttemptListener } from '../webhooks/dispatcher.js';
import type { WebhookSigner } from '../webhooks/send.js';
import type { SendPool } from '../webhooks/send-pool.js';
import type { ResendWindow } from '../wire/outbox.js';
import { toWebhook, type SaveWebhook, type Webhook } from '../wire/webhook.js';
import type { DeliveryLab } from './delivery-lab.js';
import type { Events } from './outbox.js';
import type { Scheduler } from '../kernel/scheduler.js';

export interface WebhookDeps {
  events: Events;
  scheduler: Scheduler;
  /** The programme's key that signs its webhooks, made or read when first needed. */
  signer: () => WebhookSigner;
  pool: SendPool;
  lab: DeliveryLab;
}

export interface Queued {
  id: string;
  eventId: string;
  webhookId: string;
  callbackUrl: string;
}

export function createWebhooks(core: Core, { events, scheduler, signer, pool, lab }: WebhookDeps) {
  const { store, clock, ids, programme } = core;
  const { db } = store;
  const mine = eq(webhooks.programmeId, programme);
  let verificationKey: { keyId: string; key: string } | undefined;
  const listeners = new Set<AttemptListener>();
  const dispatcher = createDispatcher(core, {
    signer,
    pool,
    lab,
    kick: () => scheduler.kick(),
    listened: () => listeners.size > 0,
    onAttempt: (report) => {
      for (const listener of listeners) {
        try {
          listener(report);
        } catch (error) {
          core.log.error('webhook attempt listener failed', { error: String(error) });
        }
      }
    },
  });
  // New deliveries are sent as soon as their event commits, not at the next tick.
  events.subscribe(() => scheduler.kick());

  const find = (id: string) =>
    db
      .select()
      .from(webhooks)
      .where(and(mine, eq(webhooks.id, id)))
      .get() ?? fail('webhook_not_found', `no webhook with id ${id}`);

  return {
    dispatcher,

    /** Oldest first. */
    list(): Webhook[] {
      return db
        .select()
        .from(webhooks)
        .where(mine)
        .orderBy(asc(webhooks.createdAt), sql`${webhooks}.rowid`)
        .all()
        .map(toWebhook);
    },

    get(id: string): Webhook {
      return toWebhook(find(id));
    },

    /**
     * Creates (no id) or updates a webhook. Duplicate types collapse; no types at all subscribes to
     * nothing, so the webhook receives no events until an update names some. An update also re-points
     * the webhook's pending deliveries at the new callbackUrl; which events it receives is
     * decided at event time, so changing `types` does not touch deliveries already queued.
     */
    put(input: SaveWebhook): Webhook {
      const problem = callbackUrlProblem(input.callbackUrl) ?? callbackHostProblem(new URL(input.callbackUrl).hostname, core.config.allowLinkLocalCallbacks);
      if (problem) fail('invalid_request', `invalid body: callbackUrl ${problem}`, [{ path: 'callbackUrl', message: problem }]);
      const types = [...new Set(input.types)];
      const now = clock.now();
      return store.transaction(() => {
        if (input.id === undefined) {
          const row = {
            programmeId: programme,
            id: ids.uuid(),
            callbackUrl: input.callbackUrl,
            types,
            faults: null,
            paused: false,
            createdAt: now,
            updatedAt: now,
          };
          db.insert(webhooks).values(row).run();
          return toWebhook(row);
        }
        const existing = db
          .select()
          .from(webhooks)
          .where(and(mine, eq(webhooks.id, input.id)))
          .get();
        if (!existing)
          fail('unknown_webhook', `no webhook with id ${input.id}: leave id out to create one`, [
            { path: 'id', message: 'names no webhook of this programme' },
          ]);
        const row = { ...existing, callbackUrl: input.callbackUrl, types, updatedAt: now };
        db.update(webhooks)
          .set({ callbackUrl: row.callbackUrl, types, updatedAt: now })
          .where(and(mine, eq(webhooks.id, row.id)))
          .run();
        db.update(deliveries)
          .set({ callbackUrl: row.callbackUrl, updatedAt: now })
          .where(and(eq(deliveries.programmeId, programme), eq(deliveries.webhookId, row.id), eq(deliveries.status, 'pending')))
          .run();
        return toWebhook(row);
      });
    },

    /** Deletes the webhook; its pending deliveries are discarded (an attempt in flight still finishes). */
    remove(id: string): void {
      const now = clock.now();
      store.transaction(() => {
        find(id);
        db.delete(webhooks)
          .where(and(mine, eq(webhooks.id, id)))
          .run();
        db.update(deliveries)
          .set({ status: 'discarded', nextAttemptAt: null, updatedAt: now })
          .where(and(eq(deliveries.programmeId, programme), eq(deliveries.webhookId, id), eq(deliveries.status, 'pending')))
          .run();
      });
      lab.forget(id);
    },

    /** `key` is base64 of the PEM SPKI text of the public key. */
    verificationKey(): { keyId: string; key: string } {
      const { keyId, privateKey } = signer();
      verificationKey ??= { keyId, key: Buffer.from(spkiPem(createPublicKey(privateKey))).toString('base64') };
      return verificationKey;
    },

    /**
     * Sends an event again: one new delivery (attempts from 1, the same body bytes and event id)
     * to each webhook subscribed to its type now — so a fixed callbackUrl or a newly added
     * webhook receives it; a deleted one does not. Returns the new deliveries (maybe none).
     */
    resend(eventId: string): Omit<Queued, 'eventId'>[] {
      const event = events.get(eventId) ?? fail('event_not_found', `no event with id ${eventId}`);
      const queued = store.transaction(() => events.queueDeliveries(event.id, event.type, clock.now()));
      scheduler.kick();
      return queued.map(({ id, webhookId, callbackUrl }) => ({ id, webhookId, callbackUrl }));
    },

    /**
     * Sends again, as `resend` does, every event (still kept) of a window of sandbox time and/or of
     * a type, oldest first: the new deliveries are due now, in that order.
     */
    resendWindow({ since, until, type }: ResendWindow): { events: number; deliveries: Queued[] } {
      const where: SQL[] = [eq(eventRows.programmeId, programme)];
      if (since !== undefined) where.push(gte(eventRows.createdAt, since));
      if (until !== undefined) where.push(lt(eventRows.createdAt, until));
      if (type !== undefined) where.push(eq(eventRows.type, type));
      const now = clock.now();
      const { matched, queued } = store.transaction(() => {
        const matched = db
          .select({ id: eventRows.id, type: eventRows.type })
          .from(eventRows)
          .where(and(...where))
          .orderBy(asc(eventRows.createdAt), asc(eventRows.seq))
          .all();
        return { matched, queued: matched.flatMap((event) => events.queueDeliveries(event.id, event.type, now)) };
      });
      scheduler.kick();
      return { events: matched.length, deliveries: queued.map(({ id, eventId, webhookId, callbackUrl }) => ({ id, eventId, webhookId, callbackUrl })) };
    },

    /** Calls `listener` after every recorded attempt; returns the unsubscribe function. */
    onAttempt(listener: AttemptListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Resolves when no attempt is in flight. */
    idle: dispatcher.idle,

    /** For shutdown: stops starting attempts, waits up to `graceMs` for those in flight; true when all finished. */
    drain: (graceMs: number) => dispatcher.drain(graceMs),

    /** Cuts the attempts in flight short and records none of them: the world is being replaced (a snapshot restored). */
    abandon: () => dispatcher.abandon(),

    /** Cuts the attempts in flight short now, and stops time travel under way from sending more (a restore is coming). */
    cutShort: () => dispatcher.cutShort(),

    /** Starts no more attempts (the programme is being deleted); those in flight are cut short at once and record nothing. */
    stop: () => dispatcher.stop(),
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
